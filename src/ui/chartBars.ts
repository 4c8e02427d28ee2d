// The chart's bars as text: kept apart from the screen so that code drawing no screen (the summary tests) can use
// them without loading Ink and React.
import Big from 'big.js';

/** A cell filled to 1/8 … 7/8 from the left. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const;

/**
 * A bar of `value` on a scale where `max` fills `cells` cells, to the nearest eighth of a cell; a value that is
 * not zero is never drawn empty. Negative values are drawn by their size (the sum beside them has the sign).
 */
export function barText(value: Big, max: Big, cells: number): string {
  if (cells <= 0 || max.eq(0) || value.eq(0)) return '';
  const eighths = Math.max(
    1,
    Math.min(
      cells * 8,
      value
        .abs()
        .div(max.abs())
        .times(cells * 8)
        .round(0, Big.roundHalfUp)
        .toNumber(),
    ),
  );
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}
