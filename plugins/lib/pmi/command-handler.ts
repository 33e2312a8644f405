// The contract between a task's PMI connection (connection.ts) and the PMI-1 and PMI-2 command
// tables: in a file of its own so the tables and the connection that dispatches to them do not
// import each other.
import type { NodePmiServer } from './node-server.js';

/** What a command handler may do on its connection. */
export interface PmiConnection {
  readonly server: NodePmiServer;
  readonly ltaskid: number;
  readonly rank: number;
  /** Sends an already formatted response. */
  send(data: string): void;
  /** The answer comes later: returns the function that sends it; requests after this one wait. */
  later(): (data: string) => void;
  /** Answers finalize: the response, then the connection is closed from our side. */
  finalize(data: string): void;
}

export type CommandHandler = (conn: PmiConnection, args: Map<string, string>) => void;
