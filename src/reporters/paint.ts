/** Colours for terminal text; the CLI gives real ones on a colour terminal, identities otherwise. */
export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}
