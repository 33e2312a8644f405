// What tsbcast's command line gave (its option parser fills it; broadcast.ts acts on it).
export interface TsbcastOptions {
  cluster?: string;
  verbose: number;
  force?: boolean;
  preserve?: boolean;
  jobid?: string;
}
