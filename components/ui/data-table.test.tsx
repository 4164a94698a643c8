import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';
import { columnClassName, shownColumns, tableClassName, type ColumnList } from './data-table-columns';

interface Fruit {
  readonly name: string;
  readonly count: number;
}

const COLUMNS: ColumnList<Fruit> = [
  { key: 'name', header: 'Fruit', cell: (fruit) => fruit.name, rowHeader: true },
  { key: 'count', header: 'Count', cell: (fruit) => fruit.count, numeric: true },
];

const render = (rows: readonly Fruit[], extra: Partial<Parameters<typeof DataTable<Fruit>>[0]> = {}) =>
  renderToStaticMarkup(<DataTable rows={rows} columns={COLUMNS} rowKey={(fruit) => fruit.name} label="Fruit" empty="No fruit." {...extra} />);

describe('shownColumns', () => {
  it('drops the columns a mode leaves out', () => {
    const columns: ColumnList<Fruit> = [COLUMNS[0], false, null, undefined, COLUMNS[1]];
    expect(shownColumns(columns).map((column) => column.key)).toEqual(['name', 'count']);
  });
});

describe('columnClassName', () => {
  it('aligns figures, then adds the column and the cell class', () => {
    expect(columnClassName({ numeric: true, className: 'score' }, 'tone-bad')).toBe('num score tone-bad');
    expect(columnClassName({ nowrap: true })).toBe('nowrap');
    expect(columnClassName({ numeric: true, wrap: true })).toBe('num wrap');
    expect(columnClassName({})).toBeUndefined();
  });
});

describe('tableClassName', () => {
  it('keeps the shared class first', () => {
    expect(tableClassName(true, 'plan-diff')).toBe('data-table dense plan-diff');
    expect(tableClassName(undefined, undefined)).toBe('data-table');
  });
});

describe('DataTable', () => {
  it('renders column headers, row headers and right-aligned figures', () => {
    const html = render([{ name: 'apple', count: 3 }]);
    expect(html).toContain('<table class="data-table" aria-label="Fruit">');
    expect(html).toContain('<th scope="col">Fruit</th><th scope="col" class="num">Count</th>');
    expect(html).toContain('<tr><th scope="row">apple</th><td class="num">3</td></tr>');
  });

  it('can be named by a visible caption or a heading instead of aria-label', () => {
    expect(render([], { label: undefined, caption: 'Fruit in stock' })).toContain('<table class="data-table"><caption>Fruit in stock</caption>');
    expect(render([], { label: undefined, labelledBy: 'fruit-heading' })).toContain('<table class="data-table" aria-labelledby="fruit-heading">');
  });

  it('says so in one full-width row when there are no rows', () => {
    expect(render([])).toContain('<tbody><tr><td colSpan="2" class="muted">No fruit.</td></tr></tbody>');
  });

  it('leaves out a cell that a row-spanning cell above covers', () => {
    const columns: ColumnList<Fruit> = [
      { key: 'group', header: 'Group', cell: () => 'all', rowHeader: 'rowgroup', cellAttributes: (_fruit, index) => ({ rowSpan: index === 0 ? 2 : 0 }) },
      ...COLUMNS.slice(1),
    ];
    const html = render([{ name: 'apple', count: 3 }, { name: 'pear', count: 1 }], { columns });
    expect(html).toContain('<tr><th rowSpan="2" scope="rowgroup">all</th><td class="num">3</td></tr><tr><td class="num">1</td></tr>');
  });

  it('omits the header row of a key/value table and wraps a wide one in a named scroller', () => {
    const html = render([{ name: 'apple', count: 3 }], { headless: true, scrollLabel: 'Fruit list' });
    expect(html).not.toContain('<thead>');
    expect(html).toMatch(/^<div class="table-scroll" role="region" aria-label="Fruit list" tabindex="0"><table/);
  });
});
