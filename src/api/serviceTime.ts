// Times as the service sent them. A Unix-ms time a Date can hold is kept as a number; anything else (beyond
// ±8.64e15 ms, beyond 2^53, a fraction, an exponent) is kept as the exact text that came, and shown as it is.
import type { ServiceTime } from './types';

/** The largest |ms| a Date holds (100,000,000 days either side of 1970). */
export const DATE_RANGE_MS = 8.64e15;

/** A JSON number as text: what a time may be written as. */
export const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Whether a number is whole milliseconds a Date can hold. */
export function isDateMs(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) <= DATE_RANGE_MS;
}

/**
 * A time from its text (a JSON number's digits): the number when it is whole Unix ms a Date can hold and reads
 * back as the same text; otherwise the text itself, so no digit is ever rounded away.
 */
export function serviceTimeFromText(text: string): ServiceTime {
  const ms = Number(text);
  return isDateMs(ms) && String(ms) === text ? ms : text;
}

/** The Unix ms of a time, when a Date can hold it; undefined for a time kept as text. */
export function timeMs(time: ServiceTime): number | undefined {
  return typeof time === 'number' && isDateMs(time) ? time : undefined;
}

/** The time exactly as the service wrote it. */
export function timeText(time: ServiceTime): string {
  return typeof time === 'number' ? String(time) : time;
}

/**
 * A number to sort and compare times by, always within the Date range (so it may be kept, summed and shown):
 * exact when a Date holds the time, the nearest end of the range beyond it.
 */
export function timeOrder(time: ServiceTime): number {
  const value = typeof time === 'number' ? time : Number(time);
  return Number.isNaN(value) ? 0 : Math.min(DATE_RANGE_MS, Math.max(-DATE_RANGE_MS, value));
}

/** The time in UTC, ISO 8601; a time a Date cannot hold is its text, said to be so. */
export function isoTime(time: ServiceTime): string {
  const ms = timeMs(time);
  return ms === undefined ? `${timeText(time)} (not a date)` : new Date(ms).toISOString();
}
