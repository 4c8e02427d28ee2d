export interface SegmentData {
  segment: string;
  index: number;
  input: string;
}
export interface Segments extends Iterable<SegmentData> {
  containing(index?: number): SegmentData | undefined;
}
export declare const SIMPLE: RegExp;
export declare const graphemeSegmenter: { segment(text: string): Segments };
export declare function icuSegmenterBuilt(): boolean;
