// The progress bar: a known fraction stays still; without one, the block moves on its own (the screen around it
// is not drawn again for it), and stops when the bar goes.
import React from 'react';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/ui/components/ProgressBar';
import { ServicesProvider, type ConsoleServices } from '../../src/ui/services';
import { makeTheme } from '../../src/ui/theme';
import { sleep } from './harness';
import { renderInTerminal, type TestTerminal } from './terminal';

// The bar reads only the theme from the console's services.
const services = { theme: makeTheme(true) } as ConsoleServices;
let t: TestTerminal | undefined;
afterEach(() => {
  t?.unmount();
  t = undefined;
});

const bars = (terminal: TestTerminal): string[] => [...new Set(terminal.stdout.frames.map((f) => stripVTControlCharacters(f).trim()))];

describe('ProgressBar', () => {
  it('without a fraction the block moves by itself; with one it stays, with its percentage', async () => {
    t = renderInTerminal(
      <ServicesProvider services={services}>
        <ProgressBar fraction={undefined} width={8} />
      </ServicesProvider>,
      { columns: 40, rows: 5 },
    );
    // A loaded machine may delay the steps (or draw two as one): three positions of the block, from the start.
    for (let waited = 0; bars(t).length < 3 && waited < 5000; waited += 20) await sleep(20);
    const moving = bars(t);
    expect(moving[0]).toBe('███░░░░░');
    expect(moving.length).toBeGreaterThanOrEqual(3);
    for (const bar of moving) expect(bar).toMatch(/^(?=.{8}$)░*█{1,3}░*$/);
    t.unmount();

    t = renderInTerminal(
      <ServicesProvider services={services}>
        <ProgressBar fraction={0.5} width={8} />
      </ServicesProvider>,
      { columns: 40, rows: 5 },
    );
    await sleep(400);
    expect(bars(t)).toEqual(['████░░░░ 50%']);
  });
});
