// What tscancel's command line gave (its option parser fills it; cancel.ts acts on it).
export interface TscancelOptions {
  cluster?: string;
  verbose: number;
  quiet?: boolean;
  user?: string;
  name?: string;
  partition?: string;
  state?: string;
  signal?: string;
  batch?: boolean;
  full?: boolean;
  nodelist?: string;
}
