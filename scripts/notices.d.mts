// Types of scripts/notices.mjs for the TypeScript that imports it (the tests).
export interface PackageNotice {
  name: string;
  version: string;
  license: string;
  files: string[];
  text: string;
}
export function bundledPackageDirs(inputFiles: readonly string[]): string[];
export function packageNotice(root: string, dir: string): PackageNotice;
export function noticesText(root: string, dirs: readonly string[]): string;
export function writeNotices(root: string, metafiles: readonly { inputs: Record<string, unknown> }[], outFile: string): string[];
