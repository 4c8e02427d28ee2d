import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { fit, sanitize, wrapText } from '../../terminal/text';

/** A label, its value, and optionally how the value is laid out in `lines` lines of `width` (else: wrapped, cut with …). */
export type Field = readonly [label: string, value: string, layout?: (width: number, lines: number) => string[]];

/**
 * The lines each value gets when the list may take `maxLines` in all: one each first, then the values that
 * need fewest lines are shown whole first (so one long value cannot hide the others). Values are outside text.
 */
function layoutFields(fields: ReadonlyArray<Field>, width: number, labelWidth: number, maxLines = Infinity): string[][] {
  const valueWidth = Math.max(1, width - labelWidth);
  const full = fields.map(([, value, layout]) => (layout ? layout(valueWidth, Infinity) : wrapText(value === '' ? '—' : value, valueWidth)));
  const room = Math.max(fields.length, maxLines);
  const given = full.map(() => 1);
  let spare = room - fields.length;
  const byNeed = full.map((lines, i) => ({ i, need: lines.length - 1 })).sort((a, b) => a.need - b.need);
  for (const { i, need } of byNeed) {
    const extra = Math.min(need, spare);
    given[i] = 1 + extra;
    spare -= extra;
  }
  return fields.map(([, value, layout], i) =>
    given[i]! >= full[i]!.length ? full[i]! : layout ? layout(valueWidth, given[i]!) : wrapText(value, valueWidth, given[i]!),
  );
}

/** The label column a FieldList of this width gives its labels: narrower on a narrow screen, up to `labelWidth`. */
export function fieldLabelWidth(width: number, labelWidth = 14): number {
  return Math.min(labelWidth, Math.max(4, Math.floor(width / 3)));
}

/**
 * Label/value lines for detail views: values are sanitised and wrapped (never wider than `width`), within
 * `maxLines`. Without a width, Ink wraps each value in the room left of the label.
 */
export function FieldList({
  fields,
  width,
  labelWidth = 14,
  maxLines,
}: {
  fields: ReadonlyArray<Field>;
  width?: number;
  labelWidth?: number;
  maxLines?: number;
}) {
  const { theme } = useServices();
  if (width === undefined) {
    return (
      <Box flexDirection="column">
        {fields.map(([label, value]) => (
          <Box key={label}>
            <Box width={labelWidth} flexShrink={0}>
              <Text color={theme.muted}>{label}</Text>
            </Box>
            <Text wrap="wrap">{value === '' ? '—' : sanitize(value)}</Text>
          </Box>
        ))}
      </Box>
    );
  }
  const label = fieldLabelWidth(width, labelWidth);
  const laid = layoutFields(fields, width, label, maxLines);
  return (
    <Box flexDirection="column">
      {fields.map(([name], i) => (
        <Box key={name} flexDirection="column">
          {laid[i]!.map((line, j) => (
            <Text key={j}>
              <Text color={theme.muted}>{fit(j === 0 ? name : '', label)}</Text>
              {line}
            </Text>
          ))}
        </Box>
      ))}
    </Box>
  );
}

/** Every line of the fields whole, each with its label (on its first line) fitted to the label column. */
export function fieldLines(fields: ReadonlyArray<Field>, width: number, labelWidth = 14): { label: string; text: string }[] {
  const label = fieldLabelWidth(width, labelWidth);
  return layoutFields(fields, width, label).flatMap((lines, i) => lines.map((text, j) => ({ label: fit(j === 0 ? fields[i]![0] : '', label), text })));
}

/** Lines a FieldList takes. */
export function fieldListHeight(fields: ReadonlyArray<Field>, width: number, labelWidth = 14, maxLines?: number): number {
  const label = fieldLabelWidth(width, labelWidth);
  return layoutFields(fields, width, label, maxLines).reduce((n, lines) => n + lines.length, 0);
}
