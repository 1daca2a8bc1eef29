// The live preview (Konva through react-konva): the cropped picture with its layers, drawn by the
// same code that draws the saved picture (contract/edit-draw.ts). A layer is dragged with a finger
// or the mouse and snaps to the centre and the safe margins; pinching (or the handles) scales and
// turns it; a double tap types into a text in place. In crop mode the whole picture shows with
// the crop over it, dragged to pan and pinched or scrolled to zoom. The keyboard does all of it.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type Konva from 'konva';
import 'konva/lib/shapes/Image';
import 'konva/lib/shapes/Rect';
import 'konva/lib/shapes/Line';
import 'konva/lib/shapes/Transformer';
import { Image as KonvaImage, Layer, Line, Rect, Shape, Stage, Transformer } from 'react-konva/lib/ReactKonvaCore';
import type { EditDescription, EditLayer, TextLayer } from '../../../contract/edit';
import { drawTextLayer, measureTextLayer, textFont } from '../../../contract/edit-draw';
import type { EditAction } from './edit-state';

/** Safe margin for text and logos, as a share of the picture (marketplaces crop their tiles). */
export const SAFE_MARGIN = 0.05;
/** How near (screen pixels) a dragged layer must come to a guide to snap to it. */
const SNAP_PX = 8;
/** The largest share of the window's height the canvas takes. */
const MAX_HEIGHT_SHARE = 0.62;

export type CanvasMode = 'layers' | 'crop';

interface Props {
  edit: EditDescription;
  image: HTMLImageElement;
  logos: ReadonlyMap<string, CanvasImageSource>;
  mode: CanvasMode;
  /** Shows the picture as it was, without the edit. */
  peek: boolean;
  selected: string | null;
  onSelect: (id: string | null) => void;
  act: (action: EditAction) => void;
  label: string;
  /** The text being typed into on the canvas, if any. */
  typing: string | null;
  onTyping: (id: string | null) => void;
  textLabel: string;
  /** Changes when served fonts have loaded: texts are measured and drawn again. */
  fontEpoch: number;
}

let measurer: CanvasRenderingContext2D | null = null;
/** A text layer's box in crop pixels (before its own scale). */
export function boxOf(layer: TextLayer, pictureWidth: number) {
  measurer ??= document.createElement('canvas').getContext('2d')!;
  return measureTextLayer(measurer, layer, pictureWidth);
}

function useWidth(element: React.RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    // The first report comes as soon as it observes.
    observer.observe(node);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

let gestures = 0;
const newGesture = () => `g${++gestures}`;

/** Snaps a centre (screen px along one axis) to the middle or to a safe margin for a box `half` wide. */
function snap(centre: number, half: number, length: number): { value: number; guide: number | null } {
  const margin = SAFE_MARGIN * length;
  const candidates = [
    { value: length / 2, guide: length / 2 },
    { value: margin + half, guide: margin },
    { value: length - margin - half, guide: length - margin },
  ];
  for (const candidate of candidates) if (Math.abs(centre - candidate.value) <= SNAP_PX) return candidate;
  return { value: centre, guide: null };
}

export function EditorCanvas({ edit, image, logos, mode, peek, selected, onSelect, act, label, typing, onTyping, textLabel, fontEpoch }: Props) {
  const frame = useRef<HTMLDivElement>(null);
  const available = useWidth(frame);
  const helpId = useId();
  const { source, crop } = edit;
  const view = mode === 'crop' || peek ? { width: source.width, height: source.height } : { width: crop.width, height: crop.height };
  const maxHeight = Math.max(240, Math.round(window.innerHeight * MAX_HEIGHT_SHARE));
  const scale = available > 0 ? Math.min(available / view.width, maxHeight / view.height) : 0;
  const W = Math.round(view.width * scale);
  const H = Math.round(view.height * scale);

  const nodes = useRef(new Map<string, Konva.Node>());
  const transformer = useRef<Konva.Transformer>(null);
  const gesture = useRef<string | null>(null);
  const pinch = useRef<{ distance: number; angle: number; scale: number; rotation: number; cropWidth: number; gesture: string } | null>(null);
  const [guides, setGuides] = useState<{ x: number | null; y: number | null }>({ x: null, y: null });

  const boxes = useMemo(
    () => new Map(edit.layers.flatMap((layer) => (layer.type === 'text' ? [[layer.id, boxOf(layer, crop.width)] as const] : []))),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fontEpoch: measured again with the served fonts
    [edit.layers, crop.width, fontEpoch],
  );

  useEffect(() => {
    const node = selected && mode === 'layers' && !peek ? nodes.current.get(selected) : undefined;
    transformer.current?.nodes(node ? [node] : []);
    transformer.current?.getLayer()?.batchDraw();
  }, [selected, mode, peek, edit.layers, W]);

  const layer = (id: string | null) => edit.layers.find((each) => each.id === id);
  /** Half the screen size of a layer's box along each axis (unturned). */
  const halfSize = (each: EditLayer) => {
    if (each.type === 'text') {
      const box = boxes.get(each.id)!;
      return { x: (box.width * each.scale * scale) / 2, y: (box.height * each.scale * scale) / 2 };
    }
    return { x: (each.width * each.scale * scale) / 2, y: (each.height * each.scale * scale) / 2 };
  };

  const onDragMove = (each: EditLayer, event: Konva.KonvaEventObject<DragEvent>) => {
    const node = event.target;
    const half = halfSize(each);
    const turned = Math.abs(each.rotation) > 1;
    const sx = turned ? { value: node.x(), guide: null } : snap(node.x(), half.x, W);
    const sy = turned ? { value: node.y(), guide: null } : snap(node.y(), half.y, H);
    node.position({ x: sx.value, y: sy.value });
    setGuides({ x: sx.guide, y: sy.guide });
    act({ type: 'place', id: each.id, x: sx.value / W, y: sy.value / H, gesture: gesture.current ?? undefined });
  };

  const onTransform = (each: EditLayer, event: Konva.KonvaEventObject<Event>) => {
    const node = event.target;
    act({ type: 'place', id: each.id, x: node.x() / W, y: node.y() / H, rotation: node.rotation(), scale: node.scaleX() / scale, gesture: gesture.current ?? undefined });
  };

  const start = () => {
    gesture.current = newGesture();
  };
  const end = () => {
    gesture.current = null;
    setGuides({ x: null, y: null });
  };

  const touches = (event: TouchEvent) => {
    const [a, b] = [event.touches[0]!, event.touches[1]!];
    return { distance: Math.hypot(b.clientX - a.clientX, b.clientY - a.clientY), angle: (Math.atan2(b.clientY - a.clientY, b.clientX - a.clientX) * 180) / Math.PI };
  };
  const onTouchMove = (event: Konva.KonvaEventObject<TouchEvent>) => {
    if (event.evt.touches.length !== 2) return;
    const target = layer(selected);
    if (mode === 'layers' && !target) return;
    event.evt.preventDefault();
    const now = touches(event.evt);
    if (!pinch.current) {
      for (const node of nodes.current.values()) if (node.isDragging()) node.stopDrag();
      pinch.current = { ...now, scale: target?.scale ?? 1, rotation: target?.rotation ?? 0, cropWidth: crop.width, gesture: newGesture() };
      return;
    }
    const started = pinch.current;
    const ratio = now.distance / Math.max(1, started.distance);
    if (mode === 'crop') {
      const width = started.cropWidth / ratio;
      act({ type: 'moveCrop', x: crop.x + (crop.width - width) / 2, y: crop.y + (crop.height - (width * crop.height) / crop.width) / 2, width, gesture: started.gesture });
    } else if (target) {
      act({ type: 'place', id: target.id, scale: started.scale * ratio, rotation: started.rotation + now.angle - started.angle, gesture: started.gesture });
    }
  };
  const onTouchEnd = (event: Konva.KonvaEventObject<TouchEvent>) => {
    if (event.evt.touches.length < 2) pinch.current = null;
  };

  const zoomCrop = (factor: number, gestureId?: string) => {
    const width = crop.width * factor;
    act({ type: 'moveCrop', x: crop.x + (crop.width - width) / 2, y: crop.y + (crop.height - (width * crop.height) / crop.width) / 2, width, gesture: gestureId });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || peek) return;
    const step = event.shiftKey ? 0.05 : 0.01;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const arrow = arrows[event.key];
    if (mode === 'crop') {
      if (arrow) act({ type: 'moveCrop', x: crop.x + arrow[0] * step * 2 * source.width, y: crop.y + arrow[1] * step * 2 * source.height });
      else if (event.key === '+' || event.key === '=') zoomCrop(0.9);
      else if (event.key === '-') zoomCrop(1 / 0.9);
      else return;
      event.preventDefault();
      return;
    }
    const target = layer(selected);
    if (!target) return;
    if (arrow) act({ type: 'place', id: target.id, x: target.x + arrow[0] * step, y: target.y + arrow[1] * step });
    else if (event.key === '+' || event.key === '=') act({ type: 'place', id: target.id, scale: target.scale * 1.05 });
    else if (event.key === '-') act({ type: 'place', id: target.id, scale: target.scale / 1.05 });
    else if (event.key === ']') act({ type: 'place', id: target.id, rotation: target.rotation + 5 });
    else if (event.key === '[') act({ type: 'place', id: target.id, rotation: target.rotation - 5 });
    else if (event.key === 'Delete' || event.key === 'Backspace') {
      act({ type: 'removeLayer', id: target.id });
      onSelect(null);
    } else if (event.key === 'Escape') onSelect(null);
    else if (event.key === 'Enter' && target.type === 'text') onTyping(target.id);
    else return;
    event.preventDefault();
  };

  const keep = (id: string) => (node: Konva.Node | null) => {
    if (node) nodes.current.set(id, node);
    else nodes.current.delete(id);
  };
  /** What every layer on the canvas has: its place, and the finger, mouse and handles moving it. */
  const handled = (each: EditLayer) => ({
    ref: keep(each.id),
    x: each.x * W,
    y: each.y * H,
    rotation: each.rotation,
    scaleX: each.scale * scale,
    scaleY: each.scale * scale,
    draggable: true,
    onMouseDown: () => onSelect(each.id),
    onTouchStart: () => onSelect(each.id),
    onDragStart: start,
    onDragMove: (event: Konva.KonvaEventObject<DragEvent>) => onDragMove(each, event),
    onDragEnd: end,
    onTransformStart: start,
    onTransform: (event: Konva.KonvaEventObject<Event>) => onTransform(each, event),
    onTransformEnd: end,
  });
  const selectFrom = (event: Konva.KonvaEventObject<Event>) => {
    if (event.target === event.target.getStage() || event.target.name() === 'picture') onSelect(null);
  };

  const typed = typing ? layer(typing) : undefined;

  return (
    <div className="editor-canvas" ref={frame}>
      <div
        className="editor-canvas__stage"
        style={{ width: W, height: H }}
        tabIndex={0}
        role="application"
        aria-label={label}
        aria-describedby={helpId}
        onKeyDown={onKeyDown}
        data-testid="editor-canvas"
        data-scale={scale}
      >
        {scale > 0 ? (
          <Stage width={W} height={H} onMouseDown={selectFrom} onTouchStart={selectFrom} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd}
            onWheel={(event) => {
              if (mode !== 'crop') return;
              event.evt.preventDefault();
              zoomCrop(event.evt.deltaY > 0 ? 1 / 0.95 : 0.95, 'wheel');
            }}
          >
            <Layer>
              {mode === 'crop' || peek ? (
                <KonvaImage name="picture" image={image} width={W} height={H} />
              ) : (
                <KonvaImage name="picture" image={image} crop={{ x: crop.x, y: crop.y, width: crop.width, height: crop.height }} width={W} height={H} />
              )}
              {mode === 'layers' && !peek
                ? edit.layers.map((each) =>
                    each.type === 'text' ? (
                      <Shape
                        key={each.id}
                        {...(() => {
                          const box = boxes.get(each.id)!;
                          return {
                            // Konva finds a shape under a finger by its fill on the hit canvas.
                            fill: 'transparent',
                            width: box.width,
                            height: box.height,
                            offsetX: box.width / 2,
                            offsetY: box.height / 2,
                            sceneFunc: (context: Konva.Context) => {
                              const native = context._context;
                              native.save();
                              native.translate(box.width / 2, box.height / 2);
                              drawTextLayer(native, each, crop.width);
                              native.restore();
                            },
                            hitFunc: (context: Konva.Context, shape: Konva.Shape) => {
                              context.beginPath();
                              context.rect(0, 0, box.width, box.height);
                              context.closePath();
                              context.fillStrokeShape(shape);
                            },
                          };
                        })()}
                        {...handled(each)}
                        opacity={typing === each.id ? 0 : 1}
                        onDblClick={() => onTyping(each.id)}
                        onDblTap={() => onTyping(each.id)}
                      />
                    ) : logos.get(each.file_key) ? (
                      <KonvaImage
                        key={each.id}
                        image={logos.get(each.file_key)}
                        width={each.width}
                        height={each.height}
                        offsetX={each.width / 2}
                        offsetY={each.height / 2}
                        {...handled(each)}
                        opacity={each.opacity}
                      />
                    ) : null,
                  )
                : null}
              {mode === 'crop' && !peek ? (
                <>
                  {/* The parts the crop leaves out, dimmed. */}
                  <Rect x={0} y={0} width={W} height={crop.y * scale} fill="rgba(0,0,0,0.55)" listening={false} />
                  <Rect x={0} y={(crop.y + crop.height) * scale} width={W} height={H - (crop.y + crop.height) * scale} fill="rgba(0,0,0,0.55)" listening={false} />
                  <Rect x={0} y={crop.y * scale} width={crop.x * scale} height={crop.height * scale} fill="rgba(0,0,0,0.55)" listening={false} />
                  <Rect
                    x={(crop.x + crop.width) * scale}
                    y={crop.y * scale}
                    width={W - (crop.x + crop.width) * scale}
                    height={crop.height * scale}
                    fill="rgba(0,0,0,0.55)"
                    listening={false}
                  />
                  <Rect
                    name="crop"
                    x={crop.x * scale}
                    y={crop.y * scale}
                    width={crop.width * scale}
                    height={crop.height * scale}
                    stroke="#ffffff"
                    strokeWidth={2}
                    dash={[8, 6]}
                    fill="rgba(255,255,255,0.01)"
                    draggable
                    dragBoundFunc={(position) => ({
                      x: Math.min(Math.max(0, position.x), W - crop.width * scale),
                      y: Math.min(Math.max(0, position.y), H - crop.height * scale),
                    })}
                    onDragStart={start}
                    onDragMove={(event) => act({ type: 'moveCrop', x: event.target.x() / scale, y: event.target.y() / scale, gesture: gesture.current ?? undefined })}
                    onDragEnd={end}
                  />
                </>
              ) : null}
              {guides.x !== null ? <Line points={[guides.x, 0, guides.x, H]} stroke="#ff2d7a" strokeWidth={1} dash={[4, 4]} listening={false} /> : null}
              {guides.y !== null ? <Line points={[0, guides.y, W, guides.y]} stroke="#ff2d7a" strokeWidth={1} dash={[4, 4]} listening={false} /> : null}
              <Transformer
                ref={transformer}
                keepRatio
                enabledAnchors={['top-left', 'top-right', 'bottom-left', 'bottom-right']}
                rotationSnaps={[0, 90, 180, 270]}
                anchorSize={18}
                anchorCornerRadius={9}
                borderStroke="#3880ff"
                anchorStroke="#3880ff"
                flipEnabled={false}
              />
            </Layer>
          </Stage>
        ) : null}
        {typed?.type === 'text' && mode === 'layers' && !peek ? (
          <InPlaceText layer={typed} pictureWidth={crop.width} scale={scale} left={typed.x * W} top={typed.y * H} act={act} onDone={() => onTyping(null)} label={textLabel} />
        ) : null}
      </div>
      <p id={helpId} className="ion-hide">
        {label}
      </p>
    </div>
  );
}

/** Typing into a text where it stands on the picture. An emptied text is taken off when typing ends. */
function InPlaceText({ layer, pictureWidth, scale, left, top, act, onDone, label }: {
  layer: TextLayer;
  pictureWidth: number;
  scale: number;
  left: number;
  top: number;
  act: (action: EditAction) => void;
  onDone: () => void;
  label: string;
}) {
  const [value, setValue] = useState(layer.text);
  const field = useRef<HTMLTextAreaElement>(null);
  const [gesture] = useState(newGesture);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const box = boxOf(layer, pictureWidth);
  const finish = () => {
    if (value.trim() === '') act({ type: 'removeLayer', id: layer.id });
    onDone();
  };
  const lines = Math.max(1, value.split('\n').length);
  return (
    <textarea
      ref={field}
      className="editor-canvas__typing"
      aria-label={label}
      value={value}
      rows={lines}
      maxLength={500}
      onChange={(event) => {
        setValue(event.target.value);
        if (event.target.value.trim() !== '') act({ type: 'updateText', id: layer.id, patch: { text: event.target.value }, gesture });
      }}
      onBlur={finish}
      onKeyDown={(event) => {
        if (event.key === 'Escape' || (event.key === 'Enter' && (event.ctrlKey || event.metaKey))) {
          event.preventDefault();
          finish();
        }
      }}
      style={{
        left,
        top,
        minWidth: box.width * layer.scale * scale,
        font: textFont(layer, pictureWidth),
        fontSize: `${box.fontPx * layer.scale * scale}px`,
        lineHeight: `${box.lineHeight * layer.scale * scale}px`,
        color: layer.color,
        background: layer.plate ?? 'rgba(0,0,0,0.15)',
        textAlign: layer.align,
        transform: `translate(-50%, -50%) rotate(${layer.rotation}deg)`,
      }}
    />
  );
}
