// The editor's state: the edit description (contract/edit.ts) changed by the seller's actions,
// with undo and redo. Every action answers a new description that still passes the contract, so
// whatever the seller does, what is previewed, kept as a draft and saved is an edit the server
// takes. A drag or a pinch is one step of history however many moves it makes.
import {
  centredCrop,
  CROP_RATIOS,
  editDescriptionSchema,
  TEXT_SIZE_MAX,
  TEXT_SIZE_MIN,
  type CropRatio,
  type EditDescription,
  type EditLayer,
  type LogoLayer,
  type TextLayer,
} from '../../../contract/edit';

export type EditAction =
  | { type: 'addText'; id: string; text: string; color: string; size?: number }
  | { type: 'addLogo'; id: string; fileKey: string; width: number; height: number }
  /** Changes a text's properties; `gesture` names the typing or the slider drag it belongs to. */
  | { type: 'updateText'; id: string; patch: Partial<Pick<TextLayer, 'text' | 'font' | 'size' | 'color' | 'bold' | 'align' | 'plate'>>; gesture?: string }
  | { type: 'updateLogo'; id: string; patch: Partial<Pick<LogoLayer, 'opacity'>> }
  /** Moves, turns or scales a layer; `gesture` names the drag or pinch it belongs to. */
  | { type: 'place'; id: string; x?: number; y?: number; rotation?: number; scale?: number; gesture?: string }
  | { type: 'removeLayer'; id: string }
  | { type: 'setCrop'; ratio: CropRatio | null }
  /** Pans or zooms the crop: a rectangle in the source's pixels, kept at the crop's ratio and inside the source. */
  | { type: 'moveCrop'; x: number; y: number; width?: number; gesture?: string }
  /** Saves as PNG keeping the source's transparency, or as JPEG on white. */
  | { type: 'setTransparency'; keep: boolean }
  | { type: 'reset' };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const DEFAULT_TEXT_SIZE = 48;
/** A new logo's width as a share of the picture's, placed in the top-right corner. */
const LOGO_SHARE = 0.22;

/** An edit with nothing on it yet: the whole source, no layers. */
export function blankEdit(source: EditDescription['source']): EditDescription {
  return editDescriptionSchema.parse({ version: 1, source, crop: centredCrop(source, null), layers: [] });
}

function updateLayer<T extends EditLayer['type']>(edit: EditDescription, id: string, type: T, change: (layer: Extract<EditLayer, { type: T }>) => EditLayer): EditDescription {
  return { ...edit, layers: edit.layers.map((layer) => (layer.id === id && layer.type === type ? change(layer as Extract<EditLayer, { type: T }>) : layer)) };
}

/** The crop rectangle moved to (x, y) and, when given, `width` wide at its ratio, inside the source. */
function movedCrop(edit: EditDescription, x: number, y: number, width?: number): EditDescription['crop'] {
  const { source, crop } = edit;
  const ratio = crop.ratio ? CROP_RATIOS[crop.ratio] : crop.width / crop.height;
  const largest = Math.min(source.width, Math.floor(source.height * ratio));
  const w = Math.round(clamp(width ?? crop.width, Math.min(64, largest), largest));
  const h = Math.min(source.height, Math.round(w / ratio));
  return { ...crop, width: w, height: h, x: Math.round(clamp(x, 0, source.width - w)), y: Math.round(clamp(y, 0, source.height - h)) };
}

/** The description after one action (the same object when the action changes nothing). */
export function applyEdit(edit: EditDescription, action: EditAction): EditDescription {
  switch (action.type) {
    case 'addText': {
      const size = clamp(Math.round(action.size ?? DEFAULT_TEXT_SIZE), TEXT_SIZE_MIN, TEXT_SIZE_MAX);
      const layer: TextLayer = { type: 'text', id: action.id, text: action.text, font: 'sans', size, color: action.color, bold: false, align: 'center', plate: null, x: 0.5, y: 0.5, rotation: 0, scale: 1 };
      return { ...edit, layers: [...edit.layers, layer] };
    }
    case 'addLogo': {
      const pictureWidth = edit.crop.width;
      const scale = (pictureWidth * LOGO_SHARE) / action.width;
      const halfWidth = (action.width * scale) / 2 / pictureWidth;
      const halfHeight = (action.height * scale) / 2 / edit.crop.height;
      const margin = 0.04;
      const layer: LogoLayer = {
        type: 'logo',
        id: action.id,
        file_key: action.fileKey,
        width: action.width,
        height: action.height,
        opacity: 1,
        x: clamp(1 - margin - halfWidth, 0, 1),
        y: clamp(margin + halfHeight, 0, 1),
        rotation: 0,
        scale: clamp(scale, 0.05, 20),
      };
      return { ...edit, layers: [...edit.layers, layer] };
    }
    case 'updateText':
      return updateLayer(edit, action.id, 'text', (layer) => ({
        ...layer,
        ...action.patch,
        ...(action.patch.size !== undefined ? { size: clamp(Math.round(action.patch.size), TEXT_SIZE_MIN, TEXT_SIZE_MAX) } : {}),
      }));
    case 'updateLogo':
      return updateLayer(edit, action.id, 'logo', (layer) => ({ ...layer, ...action.patch, ...(action.patch.opacity !== undefined ? { opacity: clamp(action.patch.opacity, 0.05, 1) } : {}) }));
    case 'place':
      return {
        ...edit,
        layers: edit.layers.map((layer) =>
          layer.id !== action.id
            ? layer
            : {
                ...layer,
                x: clamp(action.x ?? layer.x, 0, 1),
                y: clamp(action.y ?? layer.y, 0, 1),
                rotation: action.rotation === undefined ? layer.rotation : ((((action.rotation + 180) % 360) + 360) % 360) - 180,
                scale: clamp(action.scale ?? layer.scale, 0.05, 20),
              },
        ),
      };
    case 'removeLayer':
      return { ...edit, layers: edit.layers.filter((layer) => layer.id !== action.id) };
    case 'setCrop':
      return { ...edit, crop: centredCrop(edit.source, action.ratio) };
    case 'moveCrop':
      return { ...edit, crop: movedCrop(edit, action.x, action.y, action.width) };
    case 'setTransparency':
      return edit.keep_transparency === action.keep ? edit : { ...edit, keep_transparency: action.keep };
    case 'reset':
      return blankEdit(edit.source);
  }
}

export interface EditHistory {
  past: EditDescription[];
  present: EditDescription;
  future: EditDescription[];
  /** The gesture the present step belongs to: its further moves replace the step instead of adding one. */
  gesture: string | null;
}

/** How many steps back undo reaches. */
export const HISTORY_LIMIT = 100;

export function startHistory(edit: EditDescription): EditHistory {
  return { past: [], present: edit, future: [], gesture: null };
}

/** The history after an action: a new step (the redo steps dropped), or the gesture's step replaced. */
export function record(history: EditHistory, action: EditAction): EditHistory {
  const next = applyEdit(history.present, action);
  if (next === history.present) return history;
  const gesture = 'gesture' in action && action.gesture ? action.gesture : null;
  if (gesture && gesture === history.gesture) return { ...history, present: next, future: [] };
  return { past: [...history.past, history.present].slice(-HISTORY_LIMIT), present: next, future: [], gesture };
}

export function undo(history: EditHistory): EditHistory {
  const previous = history.past.at(-1);
  if (!previous) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future], gesture: null };
}

export function redo(history: EditHistory): EditHistory {
  const [next, ...rest] = history.future;
  if (!next) return history;
  return { past: [...history.past, history.present], present: next, future: rest, gesture: null };
}
