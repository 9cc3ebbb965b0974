/** The console's settings table, written once for currencies, pairs and products: what each part draws. */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';

import { initI18n } from '@/i18n';

import { Resource } from '../stores/resource';

type Table = typeof import('../components/settings-table');
let SettingsTable: Table['SettingsTable'];
let SettingsRow: Table['SettingsRow'];
let EditRow: Table['EditRow'];
let RowOutcome: Table['RowOutcome'];

// The console registers its texts when it loads, as in the app: after i18next has started.
beforeAll(async () => {
  initI18n('en');
  await import('../i18n');
  ({ SettingsTable, SettingsRow, EditRow, RowOutcome } = await import('../components/settings-table'));
});

interface Coin {
  id: number;
  code: string;
}

async function read(rows: Coin[]): Promise<Resource<Coin[]>> {
  const resource = new Resource(async () => rows);
  await resource.load();
  return resource;
}

const table = (resource: Resource<Coin[]>) =>
  renderToStaticMarkup(
    <SettingsTable resource={resource} testId="coins-table" head={<th>Code</th>}
      row={(coin) => <tr key={coin.id} data-testid={`coin-${coin.id}`}><td>{coin.code}</td></tr>} />,
  );

describe('SettingsTable', () => {
  it('lists the rows under the head in the scrolling markets table, with no dialog until a row asks', async () => {
    const html = table(await read([{ id: 1, code: 'BTC' }, { id: 2, code: 'ETH' }]));
    expect(html).toBe(
      '<div class="adm-scroll"><table class="adm-table adm-markets" data-testid="coins-table"><thead><tr><th>Code</th></tr></thead>'
        + '<tbody><tr data-testid="coin-1"><td>BTC</td></tr><tr data-testid="coin-2"><td>ETH</td></tr></tbody></table></div>',
    );
    expect(html).not.toContain('adm-dialog');
  });

  it('says it is loading before the answer and that there is nothing when it is empty', async () => {
    expect(table(new Resource(async () => [] as Coin[]))).toBe('<p class="adm-muted">Loading…</p>');
    expect(table(await read([]))).toBe('<p class="adm-muted">Nothing waiting</p>');
  });
});

describe('SettingsRow', () => {
  const row = (editing: boolean) =>
    renderToStaticMarkup(
      <table><tbody>
        <SettingsRow testId="coins-row-1" editing={editing} cells={<td>BTC</td>} actions={<button type="button">Edit</button>}
          outcome={<p>saved</p>} after={<td className="num">3</td>} form={editing && <tr><td>form</td></tr>} />
      </tbody></table>,
    );

  it('draws the cells, the actions with the outcome under them, the cells after, then nothing else', () => {
    expect(row(false)).toBe(
      '<table><tbody><tr data-testid="coins-row-1" class=""><td>BTC</td><td><div class="adm-decide"><button type="button">Edit</button></div>'
        + '<p>saved</p></td><td class="num">3</td></tr></tbody></table>',
    );
  });

  it('marks the edited row and puts its form under it', () => {
    expect(row(true)).toContain('<tr data-testid="coins-row-1" class="adm-selected">');
    expect(row(true)).toMatch(/<\/tr><tr><td>form<\/td><\/tr><\/tbody>/);
  });
});

describe('EditRow', () => {
  const form = (over: { unchanged?: boolean; error?: string; note?: string; section?: string } = {}) =>
    renderToStaticMarkup(
      <table><tbody>
        <EditRow columns={7} testId="coins-form-1" title="Edit BTC" note={over.note} section={over.section} error={over.error}
          unchanged={over.unchanged ?? false} sending={false} onCancel={() => {}} onSave={() => {}}>
          <input name="fee" defaultValue="0.1" />
        </EditRow>
      </tbody></table>,
    );

  it('spans the table with the titled form, its fields, then the reason, cancel and save', () => {
    const html = form({ note: 'Applies to new orders', section: 'lever' });
    expect(html).toContain('<tr><td colSpan="7"><form class="adm-card adm-form" data-testid="coins-form-1" data-section="lever">');
    expect(html).toContain('<h2>Edit BTC</h2><p class="adm-muted">Applies to new orders</p><input name="fee" value="0.1"/>');
    expect(html).toContain('<span>Reason</span><input maxLength="500" name="reason" value=""/></label><div class="adm-actions"><button type="button">Cancel</button>');
    expect(html).toMatch(/<button type="submit" class="adm-primary" title="Give a reason" disabled="">Save<\/button>/);
  });

  it('has no note or section unless given, says when nothing changed, and shows the refusal', () => {
    const html = form({ unchanged: true, error: 'Fee out of range' });
    expect(html).toContain('<form class="adm-card adm-form" data-testid="coins-form-1"><h2>Edit BTC</h2><input');
    expect(html).toContain('title="Nothing changed"');
    expect(html).toContain('<p class="adm-error" role="alert">Fee out of range</p>');
  });
});

describe('RowOutcome', () => {
  const outcome = (state: Parameters<Table['RowOutcome']>[0]['state']) =>
    renderToStaticMarkup(<RowOutcome state={state} saved="Saved" error="Refused" testId={(what) => `coins-${what}-1`} />);

  it('says what became of the last change', () => {
    expect(outcome('saved')).toBe('<p class="adm-ok" role="status" data-testid="coins-saved-1">Saved</p>');
    expect(outcome('saved_later')).toBe('<p class="adm-ok" role="status" data-testid="coins-saved-1">Saved</p>');
    expect(outcome('failed')).toBe('<p class="adm-error" role="alert" data-testid="coins-error-1">Refused</p>');
    expect(outcome('sending')).toBe('');
  });
});
