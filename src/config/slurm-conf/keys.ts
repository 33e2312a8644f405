// The keys Slurm 22.05 accepts, spelt as its parser lists them (src/common/read_config.c:
// slurm_conf_options, _nodename_options, _partition_options). Keys match in any case, as in
// Slurm; a key that is on none of these lists is refused, as Slurm refuses it.
// PurgeJobAfter is slurmdbd.conf's key in Slurm; tslurm, having no slurmdbd.conf, takes it here (config/purge-after.ts).

/** Top-level keys taking one value per line. */
const TOP_KEYS = `AccountingStorageTRES AccountingStorageEnforce AccountingStorageExternalHost
AccountingStorageHost AccountingStorageBackupHost AccountingStorageLoc AccountingStorageParameters
AccountingStoragePass AccountingStoragePort AccountingStorageType AccountingStorageUser
AccountingStoreFlags AccountingStoreJobComment AcctGatherEnergyType AcctGatherNodeFreq
AcctGatherProfileType AcctGatherInterconnectType AcctGatherInfinibandType AcctGatherFilesystemType
AllowSpecResourcesUsage AuthAltTypes AuthAltParameters AuthInfo AuthType BackupAddr BackupController
BatchStartTimeout BcastExclude BcastParameters BurstBufferParameters BurstBufferType CoreSpecPlugin
CliFilterPlugins ClusterName CommunicationParameters CompleteWait ControlAddr ControlMachine
CpuFreqDef CpuFreqGovernors CredType CryptoType DebugFlags DefCPUPerGPU DefMemPerCPU DefMemPerGPU
DefMemPerNode DependencyParameters DisableRootJobs EioTimeout EnforcePartLimits Epilog
EpilogMsgTime EpilogSlurmctld ExtSensorsType ExtSensorsFreq FairShareDampeningFactor FastSchedule
FederationParameters FirstJobId GetEnvTimeout GresTypes GroupUpdateForce GroupUpdateTime GpuFreqDef
HealthCheckInterval HealthCheckNodeState HealthCheckProgram InteractiveStepOptions InactiveLimit
JobAcctGatherType JobAcctGatherFrequency JobAcctGatherParams JobCompHost JobCompLoc JobCompParams
JobCompPass JobCompPort JobCompType JobContainerType JobCompUser JobCredentialPrivateKey
JobCredentialPublicCertificate JobFileAppend JobRequeue JobSubmitPlugins KeepAliveTime
KillOnBadExit KillWait LaunchParameters LaunchType Licenses LogTimeFormat MailDomain MailProg
MaxArraySize MaxDBDMsgs MaxJobCount MaxNodeCount MaxJobId MaxMemPerCPU MaxMemPerNode MaxStepCount
MaxTasksPerNode MCSParameters MCSPlugin MessageTimeout MinJobAge MpiDefault MpiParams
NodeFeaturesPlugins OverTimeLimit PluginDir PlugStackConfig PowerParameters PowerPlugin PreemptMode
PreemptType PreemptExemptTime PrEpParameters PrEpPlugins PriorityDecayHalfLife PriorityCalcPeriod
PriorityFavorSmall PriorityMaxAge PriorityParameters PriorityUsageResetPeriod PriorityType
PriorityFlags PrioritySiteFactorParameters PrioritySiteFactorPlugin PriorityWeightAge
PriorityWeightAssoc PriorityWeightFairshare PriorityWeightJobSize PriorityWeightPartition
PriorityWeightQOS PriorityWeightTRES PrivateData ProctrackType Prolog PrologSlurmctld
PrologEpilogTimeout PrologFlags PurgeJobAfter PropagatePrioProcess PropagateResourceLimitsExcept
PropagateResourceLimits RebootProgram ReconfigFlags RequeueExit RequeueExitHold ResumeFailProgram
ResumeProgram ResumeRate ResumeTimeout ResvEpilog ResvOverRun ResvProlog ReturnToService
RoutePlugin SallocDefaultCommand SbcastParameters SchedulerParameters SchedulerTimeSlice
SchedulerType ScronParameters SelectType SelectTypeParameters SlurmUser SlurmdUser SlurmctldAddr
SlurmctldDebug SlurmctldLogFile SlurmctldPidFile SlurmctldPlugstack SlurmctldPort
SlurmctldPrimaryOffProg SlurmctldPrimaryOnProg SlurmctldSyslogDebug SlurmctldTimeout
SlurmctldParameters SlurmdDebug SlurmdLogFile SlurmdParameters SlurmdPidFile SlurmdPort
SlurmdSpoolDir SlurmdSyslogDebug SlurmdTimeout SlurmSchedLogFile SlurmSchedLogLevel SrunEpilog
SrunProlog SrunPortRange StateSaveLocation SuspendExcNodes SuspendExcParts SuspendProgram
SuspendRate SuspendTime SuspendTimeout SwitchParameters SwitchType TaskEpilog TaskProlog TaskPlugin
TaskPluginParam TCPTimeout TmpFS TopologyParam TopologyPlugin TrackWCKey TreeWidth
UnkillableStepProgram UnkillableStepTimeout UsePAM VSizeFactor WaitTime X11Parameters`;

/** Top-level keys that start a record with more keys on the same line. */
export const RECORD_KEYS = ['NodeName', 'PartitionName', 'DownNodes', 'FrontendName', 'NodeSet', 'SlurmctldHost'] as const;
export type RecordKey = (typeof RECORD_KEYS)[number];

const NODE_KEYS = `BcastAddr Boards CoreSpecCount CoresPerSocket CPUs CPUSpecList CpuBind Feature Features
Gres MemSpecLimit NodeAddr NodeHostname Port Procs RealMemory Reason Sockets SocketsPerBoard State
ThreadsPerCore TmpDisk TRESWeights Weight`;

const PARTITION_KEYS = `AllocNodes AllowAccounts AllowGroups AllowQos Alternate CpuBind DefCPUPerGPU DefMemPerCPU
DefMemPerGPU DefMemPerNode Default DefaultTime DenyAccounts DenyQos DisableRootJobs ExclusiveUser
GraceTime Hidden LLN MaxCPUsPerNode MaxMemPerCPU MaxMemPerNode MaxTime MaxNodes MinNodes Nodes
OverSubscribe OverTimeLimit PreemptMode Priority PriorityJobFactor PriorityTier QOS RootOnly ReqResv
ResumeTimeout SelectTypeParameters Shared State SuspendTime SuspendTimeout TRESBillingWeights`;

const DOWN_NODES_KEYS = 'Reason State';
const FRONTEND_KEYS = 'AllowGroups AllowUsers DenyGroups DenyUsers FrontendAddr Port Reason State';
const NODESET_KEYS = 'Feature Nodes';

/** A case-insensitive table: any spelling → the canonical one. */
export type KeyTable = ReadonlyMap<string, string>;

function table(words: string): KeyTable {
  return new Map(words.split(/\s+/).filter(Boolean).map((k) => [k.toLowerCase(), k]));
}

let tables: { top: KeyTable; record: KeyTable; sub: Record<RecordKey, KeyTable> } | undefined;

/** The key tables, built on first use. */
export function keyTables() {
  tables ??= {
    top: table(TOP_KEYS),
    record: table(RECORD_KEYS.join(' ')),
    sub: {
      NodeName: table(NODE_KEYS),
      PartitionName: table(PARTITION_KEYS),
      DownNodes: table(DOWN_NODES_KEYS),
      FrontendName: table(FRONTEND_KEYS),
      NodeSet: table(NODESET_KEYS),
      // SlurmctldHost=host(addr) takes nothing else on its line.
      SlurmctldHost: table(''),
    },
  };
  return tables;
}
