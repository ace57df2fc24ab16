// Drawn on the server (tests run in node): no layout, so the window comes from `initialRect`.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PLAIN_UP_TO, VirtualRows, type RowProps } from './VirtualRows';

const ROW = 20;
const BOX = { width: 300, height: 400 };
const li = (i: number, props: RowProps) => createElement('li', { key: i, ...props, 'data-row': i }, `row ${i}`);
const tr = (i: number, props: RowProps) => createElement('tr', { key: i, ...props, 'data-row': i }, createElement('td', null, `row ${i}`));

function list(count: number) {
  return renderToStaticMarkup(createElement(VirtualRows, { as: 'ol', count, estimateSize: ROW, renderRow: li, testId: 'log', initialRect: BOX }));
}

function table(count: number) {
  const head = createElement('tr', null, createElement('th', null, 'Step'));
  return renderToStaticMarkup(createElement(VirtualRows, { as: 'table', head, columns: 1, count, estimateSize: ROW, renderRow: tr, initialRect: BOX }));
}

const drawn = (html: string) => [...html.matchAll(/data-row="(\d+)"/g)].map((m) => Number(m[1]));

describe('virtual rows', () => {
  it('draws a short list whole, as it is, with no window', () => {
    const html = list(PLAIN_UP_TO);
    expect(drawn(html)).toEqual(Array.from({ length: PLAIN_UP_TO }, (_, i) => i));
    expect(html).toContain('<ol data-testid="log"><li data-row="0">row 0</li>');
    expect(html).not.toContain('data-index');
  });

  it('draws a long list a window at a time, with the rest as padding of its height', () => {
    const count = 5000;
    const rows = drawn(list(count));
    expect(rows[0]).toBe(0);
    // The box shows 400 / 20 rows; the overscan adds a few more.
    expect(rows.length).toBeGreaterThanOrEqual(BOX.height / ROW);
    expect(rows.length).toBeLessThan(50);
    expect(list(count)).toContain(`padding-top:0;padding-bottom:${(count - rows.length) * ROW}px`);
  });

  it('windows a list one row past the threshold', () => {
    expect(drawn(list(PLAIN_UP_TO + 1)).length).toBeLessThan(50);
  });

  it('keeps a long table its header and stands in for the rows below with one spacer row', () => {
    const count = 500;
    const html = table(count);
    const rows = drawn(html);
    expect(rows.length).toBeLessThan(50);
    expect(html).toContain('<thead><tr><th>Step</th></tr></thead>');
    expect(html).toContain(`<tr aria-hidden="true"><td colSpan="1" style="height:${(count - rows.length) * ROW}px;padding:0;border:0"></td></tr></tbody>`);
  });
});
