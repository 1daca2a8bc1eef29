// Page 2 and the confirmation dialog as a seller uses them: cards from the server's catalogue,
// an unavailable option shown with its reason and never chosen, the sub-option and custom rules,
// and outputs removed from the confirmation with the total following.
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupIonicReact } from '@ionic/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CategoryOffer } from '../../../../contract/content';
import type { ContentType, ShoeView } from '../../../../contract/enums';
import {
  DEFAULT_PRICES,
  EMPTY_SELECTION,
  plannedOutputs,
  priceOutputs,
  toContentConfig,
  withoutOutputs,
  type PlannedOutput,
  type Selection,
} from '../../../../contract/selection';
import { initI18n } from '../../../../src/lib/i18n';
import { StylesSection } from '../../../../src/features/task/StylesSection';
import { ConfirmDialog } from '../../../../src/features/task/ConfirmDialog';

beforeAll(async () => {
  // As the app starts Ionic: its buttons then have styles to attach (and log nothing).
  setupIonicReact({ mode: 'md' });
  await initI18n('en');
});

const NO_AI = 'This needs an AI image service, and none is configured on this server.';

function offer(category: CategoryOffer['category'], extra: Partial<CategoryOffer> = {}): CategoryOffer {
  return {
    category,
    content_module: 'PRODUCT_IMAGE',
    price: DEFAULT_PRICES[category],
    available: true,
    reason: null,
    sub_options: [],
    custom: { available: false, reason: 'Only a poster can follow a description of your own.' },
    ...extra,
  };
}

const OFFERS: CategoryOffer[] = [
  offer('HALF_BODY', { content_module: 'REAL_PERSON_IMAGE', available: false, reason: NO_AI }),
  offer('PRODUCT', {
    price: 3,
    sub_options: (['STUDIO', 'WB_OZON', 'AMAZON'] as const).map((value) => ({ value, available: true, reason: null })),
  }),
  offer('PRODUCT2'),
  offer('POSTER', { custom: { available: true, reason: null } }),
  offer('CREATIVE_VIDEO', {
    content_module: 'CREATIVE_VIDEO',
    sub_options: [
      { value: 'SHOE_GIANT', available: true, reason: null },
      { value: 'SHOE_SAND', available: true, reason: null },
      { value: 'CUSTOM', available: false, reason: 'Needs an AI video service.' },
    ],
    custom: { available: false, reason: 'Needs an AI video service.' },
  }),
];

function Page({ type, onSelection }: { type: ContentType; onSelection?: (s: Selection) => void }) {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const change = (update: (current: Selection) => Selection) => {
    const next = update(selection);
    setSelection(next);
    onSelection?.(next);
  };
  return <StylesSection type={type} selection={selection} offers={OFFERS} onChange={change} onPrompt={(prompt) => change((current) => ({ ...current, prompt }))} />;
}

const card = (category: string) => within(screen.getByTestId(`category-${category}`)).getAllByRole('checkbox')[0]!;

describe('page 2', () => {
  it('shows the server’s price and refuses an unavailable category with its reason', async () => {
    const user = userEvent.setup();
    let last: Selection = EMPTY_SELECTION;
    render(<Page type="person" onSelection={(s) => (last = s)} />);
    const half = card('HALF_BODY');
    expect(half.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByTestId('category-HALF_BODY').textContent).toContain(`Unavailable: ${NO_AI}`);
    await user.click(half);
    expect(half.getAttribute('aria-checked')).toBe('false');
    expect(last.categories).toEqual({});
  });

  it('product: prices per angle, and the custom card makes a poster with the prompt enabled only while on', async () => {
    const user = userEvent.setup();
    let last: Selection = EMPTY_SELECTION;
    render(<Page type="product" onSelection={(s) => (last = s)} />);
    expect(screen.getByTestId('category-PRODUCT').textContent).toContain('3 tokens per angle');
    await user.click(card('PRODUCT'));
    await user.click(card('PRODUCT2'));
    expect(last.categories).toEqual({ PRODUCT: ['STUDIO'], PRODUCT2: [] });
    // Product shots come in looks; Amazon's is added to the studio one.
    const looks = within(screen.getByTestId('category-PRODUCT')).getByRole('group', { name: 'Look' });
    await user.click(within(looks).getByRole('checkbox', { name: 'Amazon, white' }));
    expect(last.categories).toEqual({ PRODUCT: ['STUDIO', 'AMAZON'], PRODUCT2: [] });

    const prompt = screen.getByLabelText('Scene description') as HTMLTextAreaElement;
    expect(prompt.disabled).toBe(true);
    await user.click(within(screen.getByTestId('custom-card')).getAllByRole('checkbox')[0]!);
    expect(last).toMatchObject({ custom: true, categories: { POSTER: [] } });
    expect(card('PRODUCT').getAttribute('aria-checked')).toBe('false');
    expect(prompt.disabled).toBe(false);
    await user.type(prompt, 'On wet cobblestones');
    expect(last.prompt).toBe('On wet cobblestones');
    // Only the poster follows a description: the other cards say why while the custom card is on.
    expect(card('PRODUCT2').getAttribute('aria-disabled')).toBe('true');
  });

  it('video: choosing the category picks its first scene, more can be added, the last off turns it off', async () => {
    const user = userEvent.setup();
    let last: Selection = EMPTY_SELECTION;
    render(<Page type="video" onSelection={(s) => (last = s)} />);
    await user.click(card('CREATIVE_VIDEO'));
    expect(last.categories).toEqual({ CREATIVE_VIDEO: ['SHOE_GIANT'] });
    // CUSTOM is the custom card's business, not a chip.
    expect(screen.queryByTestId('sub-CREATIVE_VIDEO-CUSTOM')).toBeNull();
    await user.click(screen.getByTestId('sub-CREATIVE_VIDEO-SHOE_SAND'));
    expect(last.categories).toEqual({ CREATIVE_VIDEO: ['SHOE_GIANT', 'SHOE_SAND'] });
    await user.click(screen.getByTestId('sub-CREATIVE_VIDEO-SHOE_GIANT'));
    await user.click(screen.getByTestId('sub-CREATIVE_VIDEO-SHOE_SAND'));
    expect(last.categories).toEqual({});
    // Neither category nor scenes can follow a description here: the custom card says why.
    const custom = within(screen.getByTestId('custom-card')).getAllByRole('checkbox')[0]!;
    expect(custom.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByTestId('custom-card').textContent).toContain('Needs an AI video service.');
  });
});

describe('the confirmation dialog', () => {
  const views: ShoeView[] = ['right_45', 'right_side', 'left_side', 'front', 'back'];
  const selection: Selection = { categories: { PRODUCT: [], POSTER: [] }, custom: false, prompt: '' };

  function Confirm({ balance }: { balance: number | null }) {
    const [removed, setRemoved] = useState<PlannedOutput[]>([]);
    const config = withoutOutputs(toContentConfig(selection, 'product', {}), removed, views);
    const priced = priceOutputs(plannedOutputs(config, views), DEFAULT_PRICES);
    return (
      <ConfirmDialog
        open
        outputs={priced.outputs}
        total={priced.total}
        balance={balance}
        busy={false}
        onRemove={(output) => setRemoved((list) => [...list, output])}
        onCancel={() => {}}
        onConfirm={() => {}}
      />
    );
  }

  it('lists one product shot per view and the poster, each removable, with the total against the balance', async () => {
    const user = userEvent.setup();
    render(<Confirm balance={10} />);
    expect(screen.getAllByTestId('confirm-output')).toHaveLength(6);
    expect(screen.getByTestId('confirm-total').textContent).toBe('Total: 14 tokens');
    expect(screen.getByRole('alert').textContent).toBe('Not enough tokens: 4 more needed.');

    await user.click(screen.getByRole('button', { name: 'Remove Product shots: Front' }));
    await user.click(screen.getByRole('button', { name: 'Remove Poster' }));
    expect(screen.getAllByTestId('confirm-output').map((row) => row.textContent)).not.toContain('Poster');
    expect(screen.getAllByTestId('confirm-output')).toHaveLength(4);
    expect(screen.getByTestId('confirm-total').textContent).toBe('Total: 8 tokens');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Your balance: 10 tokens')).toBeTruthy();
  });

  it('counts tokens in the plural forms of the language', () => {
    render(<Confirm balance={1} />);
    expect(screen.getByText('Your balance: 1 token')).toBeTruthy();
    expect(screen.getByTestId('confirm-submit').textContent).toBe('Confirm: 14 tokens');
  });

  it('with every output removed, says there is nothing to make and cannot be confirmed', async () => {
    const user = userEvent.setup();
    render(<Confirm balance={null} />);
    for (const button of screen.getAllByRole('button', { name: /^Remove / })) await user.click(button);
    expect(screen.queryAllByTestId('confirm-output')).toHaveLength(0);
    expect(screen.getByRole('alert').textContent).toBe('Nothing left to make: cancel and choose a style.');
    expect(screen.getByText('Your balance is checked when the task is sent.')).toBeTruthy();
    expect((screen.getByTestId('confirm-submit') as HTMLElement & { disabled: boolean }).disabled).toBe(true);
  });
});
