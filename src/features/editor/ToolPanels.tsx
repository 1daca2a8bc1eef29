// The editor's four tools (SPEC §2): text, text colour, logo and crop, each a panel of plain
// controls a thumb or the keyboard works, with the list of layers to pick one without the canvas.
import { useId, useRef, useState, type ReactNode } from 'react';
import { IonButton } from '@ionic/react';
import { addOutline, imageOutline, trashOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import {
  CROP_RATIOS,
  EDIT_FONTS,
  MARKETPLACE_MINIMUMS,
  MAX_LAYERS,
  TEXT_ALIGNS,
  TEXT_SIZE_MAX,
  TEXT_SIZE_MIN,
  marketplacesBelowMinimum,
  type CropRatio,
  type EditDescription,
  type EditLayer,
  type LogoLayer,
  type TextLayer,
} from '../../../contract/edit';
import { hex, inkOn, parseHex } from '../../../contract/colour';
import { Icon } from '../../components/Icon';
import type { EditAction } from './edit-state';
import { LOW_CONTRAST } from './picture';
import { FileButton } from './FileButton';
import { TOOLS, type Tool } from './tools';


const MARKET_NAMES: Record<keyof typeof MARKETPLACE_MINIMUMS, string> = { wildberries: 'Wildberries', ozon: 'Ozon', amazon: 'Amazon' };

let gestures = 0;
const newGesture = () => `panel${++gestures}`;

interface PanelProps {
  edit: EditDescription;
  selected: EditLayer | undefined;
  act: (action: EditAction) => void;
  onSelect: (id: string | null) => void;
}

export function ToolTabs({ tool, onTool }: { tool: Tool; onTool: (tool: Tool) => void }) {
  const { t } = useTranslation();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const wrapped = (next + TOOLS.length) % TOOLS.length;
    onTool(TOOLS[wrapped]!);
    buttons.current[wrapped]?.focus();
  };
  return (
    <div className="editor-tabs" role="tablist" aria-label={t('history.editor.tools.label')}>
      {TOOLS.map((each, index) => (
        <button
          key={each}
          ref={(node) => {
            buttons.current[index] = node;
          }}
          type="button"
          role="tab"
          id={`editor-tab-${each}`}
          aria-selected={tool === each}
          aria-controls={`editor-panel-${each}`}
          tabIndex={tool === each ? 0 : -1}
          onClick={() => onTool(each)}
          onKeyDown={(event) => onKeyDown(event, index)}
          data-testid={`tool-${each}`}
        >
          {t(`history.editor.tools.${each}`)}
        </button>
      ))}
    </div>
  );
}

export function ToolPanel({ tool, children }: { tool: Tool; children: ReactNode }) {
  return (
    <div className="editor-panel" role="tabpanel" id={`editor-panel-${tool}`} aria-labelledby={`editor-tab-${tool}`}>
      {children}
    </div>
  );
}

/** The layers, topmost last as drawn; picking one selects it on the canvas too. */
export function LayerList({ edit, selected, onSelect }: Omit<PanelProps, 'act'>) {
  const { t } = useTranslation();
  if (edit.layers.length === 0) return null;
  return (
    <div className="editor-layers" role="group" aria-label={t('history.editor.layers')}>
      {edit.layers.map((layer) => (
        <button
          key={layer.id}
          type="button"
          aria-pressed={selected?.id === layer.id}
          onClick={() => onSelect(selected?.id === layer.id ? null : layer.id)}
          data-testid={`layer-${layer.id}`}
        >
          {layer.type === 'text' ? t('history.editor.layerText', { text: layer.text.split('\n')[0] }) : t('history.editor.layerLogo')}
        </button>
      ))}
    </div>
  );
}

export function TextPanel({ edit, selected, act, onSelect, onAdd, onType }: PanelProps & { onAdd: () => void; onType: (id: string) => void }) {
  const { t } = useTranslation();
  const sizeId = useId();
  const fieldId = useId();
  const text = selected?.type === 'text' ? selected : undefined;
  const sizeGesture = useRef(newGesture());
  const full = edit.layers.length >= MAX_LAYERS;
  return (
    <>
      <IonButton onClick={onAdd} disabled={full} data-testid="add-text">
        <Icon icon={addOutline} /> {t('history.editor.text.add')}
      </IonButton>
      {full ? <p className="editor-note">{t('history.editor.text.limit', { count: MAX_LAYERS })}</p> : null}
      {text ? (
        <div className="editor-fields">
          <label htmlFor={fieldId}>{t('history.editor.text.field')}</label>
          <TextField layer={text} id={fieldId} act={act} onType={() => onType(text.id)} />
          <label htmlFor={sizeId}>{t('history.editor.text.size', { size: text.size })}</label>
          <input
            id={sizeId}
            type="range"
            min={TEXT_SIZE_MIN}
            max={TEXT_SIZE_MAX}
            step={1}
            value={text.size}
            onPointerDown={() => (sizeGesture.current = newGesture())}
            onChange={(event) => act({ type: 'updateText', id: text.id, patch: { size: Number(event.target.value) }, gesture: sizeGesture.current })}
            data-testid="text-size"
          />
          <Choice
            label={t('history.editor.text.font')}
            options={EDIT_FONTS.map((font) => ({ value: font, label: t(`history.editor.text.fonts.${font}`), className: `editor-font--${font}` }))}
            value={text.font}
            onChange={(font) => act({ type: 'updateText', id: text.id, patch: { font } })}
          />
          <Choice
            label={t('history.editor.text.align')}
            options={TEXT_ALIGNS.map((align) => ({ value: align, label: t(`history.editor.text.aligns.${align}`) }))}
            value={text.align}
            onChange={(align) => act({ type: 'updateText', id: text.id, patch: { align } })}
          />
          <label className="editor-check">
            <input type="checkbox" checked={text.bold} onChange={(event) => act({ type: 'updateText', id: text.id, patch: { bold: event.target.checked } })} />
            {t('history.editor.text.bold')}
          </label>
          <label className="editor-check">
            <input
              type="checkbox"
              checked={text.plate !== null}
              onChange={(event) => act({ type: 'updateText', id: text.id, patch: { plate: event.target.checked ? plateFor(text.color) : null } })}
              data-testid="text-plate"
            />
            {t('history.editor.text.plate')}
          </label>
          <IonButton fill="outline" color="danger" onClick={() => {
            act({ type: 'removeLayer', id: text.id });
            onSelect(null);
          }}>
            <Icon icon={trashOutline} /> {t('history.editor.text.remove')}
          </IonButton>
        </div>
      ) : (
        <p className="editor-note">{t('history.editor.text.none')}</p>
      )}
    </>
  );
}

/** A plate that sets a colour off: dark behind light text, light behind dark. */
function plateFor(colour: string): string {
  return hex(inkOn(parseHex(colour) ?? [0, 0, 0])).toLowerCase();
}

/** The text's field: every keystroke shows on the picture, one undo step for the whole typing. */
function TextField({ layer, id, act, onType }: { layer: TextLayer; id: string; act: PanelProps['act']; onType: () => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const gesture = useRef(newGesture());
  return (
    <textarea
      id={id}
      rows={2}
      maxLength={500}
      value={draft ?? layer.text}
      onFocus={() => (gesture.current = newGesture())}
      onChange={(event) => {
        setDraft(event.target.value);
        if (event.target.value.trim() !== '') act({ type: 'updateText', id: layer.id, patch: { text: event.target.value }, gesture: gesture.current });
      }}
      onBlur={() => setDraft(null)}
      onDoubleClick={onType}
      data-testid="text-field"
    />
  );
}

function Choice<T extends string>({ label, options, value, onChange }: {
  label: string;
  options: { value: T; label: string; className?: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className="editor-choice" role="radiogroup" aria-label={label}>
      <span className="editor-choice__label" aria-hidden="true">
        {label}
      </span>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={value === option.value}
          className={option.className}
          onClick={() => onChange(option.value)}
          data-testid={`choice-${option.value}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

export function ColourPanel({ selected, act, palette, contrast }: PanelProps & { palette: string[]; contrast: number | null }) {
  const { t } = useTranslation();
  const customId = useId();
  const [target, setTarget] = useState<'text' | 'plate'>('text');
  const text = selected?.type === 'text' ? selected : undefined;
  if (!text) return <p className="editor-note">{t('history.editor.colour.pickText')}</p>;
  const painting = target === 'plate' && text.plate !== null ? 'plate' : 'text';
  const current = painting === 'plate' ? text.plate! : text.color;
  const paint = (colour: string) => act({ type: 'updateText', id: text.id, patch: painting === 'plate' ? { plate: colour } : { color: colour } });
  return (
    <div className="editor-fields">
      {text.plate !== null ? (
        <Choice
          label={t('history.editor.colour.target')}
          options={[
            { value: 'text' as const, label: t('history.editor.colour.text') },
            { value: 'plate' as const, label: t('history.editor.colour.plate') },
          ]}
          value={painting}
          onChange={setTarget}
        />
      ) : null}
      <div className="editor-swatches" role="radiogroup" aria-label={t('history.editor.colour.palette')}>
        {palette.map((colour) => (
          <button
            key={colour}
            type="button"
            role="radio"
            aria-checked={current.toLowerCase() === colour}
            aria-label={t('history.editor.colour.swatch', { colour })}
            style={{ background: colour }}
            onClick={() => paint(colour)}
            data-testid="swatch"
            data-colour={colour}
          />
        ))}
      </div>
      <label htmlFor={customId}>{t('history.editor.colour.custom')}</label>
      <input id={customId} type="color" value={current} onChange={(event) => paint(event.target.value.toLowerCase())} />
      {contrast !== null ? (
        <p className={contrast < LOW_CONTRAST ? 'editor-warning' : 'editor-note'} role="status" data-testid="contrast">
          {t(contrast < LOW_CONTRAST ? 'history.editor.colour.lowContrast' : 'history.editor.colour.goodContrast', { ratio: contrast.toFixed(1) })}
        </p>
      ) : null}
    </div>
  );
}

export function LogoPanel({ edit, selected, act, onSelect, onPick, remembered, onRemembered, maxSize }: PanelProps & {
  onPick: (file: File) => void;
  remembered: boolean;
  onRemembered: () => void;
  maxSize: string;
}) {
  const { t } = useTranslation();
  const opacityId = useId();
  const logo: LogoLayer | undefined = selected?.type === 'logo' ? selected : undefined;
  const full = edit.layers.length >= MAX_LAYERS;
  return (
    <div className="editor-fields">
      <div className="editor-row">
        <FileButton accept="image/png,image/jpeg,image/*" onFile={onPick} disabled={full} testId="upload-logo" inputTestId="logo-input">
          <Icon icon={imageOutline} /> {t('history.editor.logo.upload')}
        </FileButton>
        {remembered ? (
          <IonButton fill="outline" onClick={onRemembered} disabled={full} data-testid="last-logo">
            {t('history.editor.logo.last')}
          </IonButton>
        ) : null}
      </div>
      <p className="editor-note">{t('history.editor.logo.hint', { size: maxSize })}</p>
      {logo ? (
        <>
          <label htmlFor={opacityId}>{t('history.editor.logo.opacity', { percent: Math.round(logo.opacity * 100) })}</label>
          <input
            id={opacityId}
            type="range"
            min={5}
            max={100}
            value={Math.round(logo.opacity * 100)}
            onChange={(event) => act({ type: 'updateLogo', id: logo.id, patch: { opacity: Number(event.target.value) / 100 } })}
          />
          <IonButton fill="outline" color="danger" onClick={() => {
            act({ type: 'removeLayer', id: logo.id });
            onSelect(null);
          }}>
            <Icon icon={trashOutline} /> {t('history.editor.logo.remove')}
          </IonButton>
        </>
      ) : null}
    </div>
  );
}

export function CropPanel({ edit, act, canKeepTransparency }: Pick<PanelProps, 'edit' | 'act'> & { canKeepTransparency: boolean }) {
  const { t } = useTranslation();
  const below = marketplacesBelowMinimum(edit.crop);
  const ratios: (CropRatio | null)[] = [null, ...(Object.keys(CROP_RATIOS) as CropRatio[])];
  return (
    <div className="editor-fields">
      <Choice
        label={t('history.editor.crop.ratios')}
        options={ratios.map((ratio) => ({ value: ratio ?? 'original', label: ratio ?? t('history.editor.crop.original') }))}
        value={edit.crop.ratio ?? 'original'}
        onChange={(value) => act({ type: 'setCrop', ratio: value === 'original' ? null : (value as CropRatio) })}
      />
      <p className="editor-note">{t('history.editor.crop.marketplaces')}</p>
      <p className="editor-size" data-testid="crop-size">
        {t('history.editor.crop.size', { width: edit.crop.width, height: edit.crop.height })}
      </p>
      {below.length > 0 ? (
        <p className="editor-warning" role="status" data-testid="crop-warning">
          {t('history.editor.crop.below', {
            markets: below.map((name) => MARKET_NAMES[name]).join(', '),
            minimum: below.map((name) => `${MARKETPLACE_MINIMUMS[name].width} × ${MARKETPLACE_MINIMUMS[name].height}`).join(', '),
          })}
        </p>
      ) : (
        <p className="editor-note" role="status">
          {t('history.editor.crop.enough')}
        </p>
      )}
      <p className="editor-note">{t('history.editor.crop.hint')}</p>
      {canKeepTransparency ? (
        <label className="editor-check">
          <input type="checkbox" checked={edit.keep_transparency} onChange={(event) => act({ type: 'setTransparency', keep: event.target.checked })} />
          {t('history.editor.crop.transparency')}
        </label>
      ) : null}
    </div>
  );
}
