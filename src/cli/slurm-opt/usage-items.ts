// The lines of srun's and sbatch's --usage synopsis, as 22.05 breaks them (the option
// names and metavariables are facts a script may grep; /work/ref/srun-usage.txt and
// sbatch-usage.txt); help.ts puts them under `Usage: <bin> `.
import type { JobCommand } from './spec.js';

const SRUN = [
  '[-N nnodes] [-n ntasks] [-i in] [-o out] [-e err]',
  '[-c ncpus] [-r n] [-p partition] [--hold] [-t minutes]',
  '[-D path] [--immediate[=secs]] [--overcommit] [--overlap] [--no-kill]',
  '[--oversubscribe] [--label] [--unbuffered] [-m dist] [-J jobname]',
  '[--jobid=id] [--verbose] [--slurmd_debug=#] [--gres=list]',
  '[-T threads] [-W sec] [--gres-flags=opts]',
  '[--licenses=names] [--clusters=cluster_names]',
  '[--qos=qos] [--time-min=minutes]',
  '[--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]',
  '[--mpi=type] [--account=name] [--dependency=type:jobid[+time]]',
  '[--kill-on-bad-exit] [--propagate[=rlimits] [--comment=name]',
  '[--cpu-bind=...] [--mem-bind=...] [--network=type]',
  '[--ntasks-per-node=n] [--ntasks-per-socket=n] [reservation=name]',
  '[--ntasks-per-core=n] [--mem-per-cpu=MB] [--preserve-env]',
  '[--profile=...] [--exact]',
  '[--mail-type=type] [--mail-user=user] [--nice[=value]]',
  '[--prolog=fname] [--epilog=fname]',
  '[--task-prolog=fname] [--task-epilog=fname]',
  '[--ctrl-comm-ifhn=addr] [--multi-prog] [--mcs-label=mcs]',
  '[--cpu-freq=min[-max[:gov]]] [--power=flags] [--spread-job]',
  '[--switches=max-switches{@max-time-to-wait}] [--reboot]',
  '[--core-spec=cores] [--thread-spec=threads]',
  '[--bb=burst_buffer_spec] [--bbf=burst_buffer_file]',
  '[--bcast=<dest_path>] [--bcast-exclude=<NONE|path1,...,pathN>]',
  '[--send-libs[=y|n]] [--compress[=library]]',
  '[--acctg-freq=<datatype>=<interval>] [--delay-boot=mins]',
  '[-w hosts...] [-x hosts...] [--use-min-nodes]',
  '[--mpi-combine=yes|no] [--het-group=value]',
  '[--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]',
  '[--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]',
  '[--mem-per-gpu=MB]',
  'executable [args...]',
];

const SBATCH = [
  '[-N nnodes] [-n ntasks]',
  '[-c ncpus] [-r n] [-p partition] [--hold] [--parsable] [-t minutes]',
  '[-D path] [--no-kill] [--overcommit]',
  '[--input file] [--output file] [--error file]',
  '[--time-min=minutes] [--licenses=names] [--clusters=cluster_names]',
  '[--chdir=directory] [--oversubscribe] [-m dist] [-J jobname]',
  '[--verbose] [--gid=group] [--uid=user]',
  '[--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]',
  '[--account=name] [--dependency=type:jobid[+time]] [--comment=name]',
  '[--mail-type=type] [--mail-user=user] [--nice[=value]] [--wait]',
  '[--requeue] [--no-requeue] [--ntasks-per-node=n] [--propagate]',
  '[--nodefile=file] [--nodelist=hosts] [--exclude=hosts]',
  '[--network=type] [--mem-per-cpu=MB] [--qos=qos] [--gres=list]',
  '[--mem-bind=...] [--reservation=name] [--mcs-label=mcs]',
  '[--cpu-freq=min[-max[:gov]]] [--power=flags] [--gres-flags=opts]',
  '[--switches=max-switches{@max-time-to-wait}] [--reboot]',
  '[--core-spec=cores] [--thread-spec=threads]',
  '[--bb=burst_buffer_spec] [--bbf=burst_buffer_file]',
  '[--array=index_values] [--profile=...] [--ignore-pbs] [--spread-job]',
  '[--export[=names]] [--export-file=file|fd] [--delay-boot=mins]',
  '[--use-min-nodes]',
  '[--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]',
  '[--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]',
  '[--mem-per-gpu=MB]',
  'executable [args...]',
];

export const USAGE_LINES: Readonly<Record<JobCommand, readonly string[]>> = { srun: SRUN, sbatch: SBATCH, salloc: [] };

/** The first line of --help. */
export const HELP_USAGE_LINE: Readonly<Record<JobCommand, string>> = {
  srun: 'Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] [ : [OPTIONS(N)...]] executable(N) [args(N)...]',
  sbatch: 'Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]',
  salloc: 'Usage: salloc [OPTIONS(0)...] [ : [OPTIONS(N)...]] [command(0) [args(0)...]]',
};
