#!/usr/bin/env node
// A stand-in for native/pmix-server/tspmix_server, speaking its line protocol, for the unit
// tests of mpi/pmix: it logs every request to $FAKE_PMIX_LOG/<hostname>.log and answers like
// the real helper. FAKE_PMIX_AFTER_JOB says what it does once the namespace is registered:
// `fence` (send this node's blob, its hostname), `abort` (rank 1 aborts with 7), `die` (exit 3).
// Every forked rank is reported connected (PMIx_Init) at once.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [tmpdir, hostname] = process.argv.slice(2);
const hex = (text) => Buffer.from(text).toString('hex') || '-';
const log = (line) => appendFileSync(`${process.env.FAKE_PMIX_LOG}/${hostname}.log`, `${line}\n`);
let nspace = '';
log(`start ${tmpdir}`);
process.stdout.write('ready fake 1.0\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  log(line);
  const [kind, ...args] = line.split(' ');
  if (kind === 'job') {
    nspace = args[0];
    process.stdout.write('ok job\n');
    const after = process.env.FAKE_PMIX_AFTER_JOB;
    if (after === 'fence') process.stdout.write(`fence 0 ${hex(hostname)}\n`);
    if (after === 'abort') process.stdout.write(`abort 1 7 ${hex('boom')}\n`);
    if (after === 'die') process.exit(3);
  } else if (kind === 'fork' && args[0] === '99') {
    process.stdout.write('error fork 99: BAD-PARAM\n');
  } else if (kind === 'fork') {
    process.stdout.write(`env ${args[0]} ${hex(`PMIX_NAMESPACE=${nspace}\0PMIX_RANK=${args[0]}\0PMIX_SERVER_URI4=srv;tcp4://127.0.0.1:1`)}\n`);
    process.stdout.write(`connected ${args[0]}\n`);
  } else if (kind === 'quit') {
    process.exit(0);
  }
});
