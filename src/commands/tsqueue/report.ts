// One tsqueue listing from one answer of the controller: squeue's table (header, the records
// filtered, array tasks put together unless -r, sorted), or the --json/--yaml document.
import type { JobView } from '../../protocol/job-view.js';
import { dataParserDocument, dataParserText } from '../../cli/format/data-parser.js';
import { jobToData } from '../../cli/format/job-data.js';
import { filterRecords } from '../../cli/format/squeue-filter.js';
import type { SqueueContext } from '../../cli/format/squeue-fields.js';
import { renderHeader, renderRecord } from '../../cli/format/squeue-print.js';
import { buildRecords, combinePendingTasks, expandTasks, type SqueueRecord } from '../../cli/format/squeue-records.js';
import { sortRecords } from '../../cli/format/squeue-sort.js';
import type { TsqueueParams } from './params.js';

export interface ReportContext extends SqueueContext {
  /** The time sort.c's start-time pass sees (see SortOptions.startNow). */
  startNow: number;
  /** squeue's info() lines (stderr). */
  info(message: string): void;
}

/** --json / --yaml: every job the controller has, whatever the filters (as squeue 22.05 does). */
export function dataReport(views: readonly JobView[], params: TsqueueParams, cluster: string): Promise<string> {
  const jobs = buildRecords(views).map((rec) => jobToData(rec, cluster));
  return dataParserText(dataParserDocument({ jobs }), params.output === 'yaml');
}

/**
 * The table, written as squeue writes it: the header first, so that a bad -S key (found
 * while sorting) leaves the header on stdout before the error, as in squeue.
 */
export function tableReport(all: readonly SqueueRecord[], params: TsqueueParams, ctx: ReportContext, write: (text: string) => void): void {
  if (params.header) write(renderHeader(params.layout));
  let records = filterRecords(all, params.filter);
  if (!params.array && !params.arrayUnique) records = combinePendingTasks(records);
  sortRecords(records, params.sort, { now: ctx.now, startNow: ctx.startNow, info: ctx.info });
  // Written a megabyte or so at a time: wide lines times many jobs outgrow one string.
  let chunk = '';
  for (const rec of records) {
    for (const line of params.array ? expandTasks(rec) : [rec]) {
      chunk += renderRecord(line, params.layout, ctx);
      if (chunk.length < CHUNK_CHARS) continue;
      write(chunk);
      chunk = '';
    }
  }
  write(chunk);
}

const CHUNK_CHARS = 1 << 20;
