// A node's I/O connection to tsrun (slurmstepd's connection to srun's I/O port): opened with a
// hello sealed by the auth plugin and carrying the step's key, so tsrun knows which node of
// which step it is; then the tasks' output, exits and the daemon's own messages go up as plain
// lines, and stdin and signals come down.
import type net from 'node:net';
import { connectEndpoint } from '../../net/endpoint.js';
import type { MessageAuth } from '../../net/message-auth.js';
import { lineReader } from '../../protocol/rpc.js';
import { inputLimits } from '../../net/input-limits.js';
import type { NodeToTsrun, TsrunToNode } from '../../protocol/remote-launch.js';

export class IoUplink {
  private constructor(private readonly socket: net.Socket) {}

  static async open(io: { host: string; port: number; key: string }, nodeId: number, auth: MessageAuth): Promise<IoUplink> {
    const socket = await connectEndpoint({ host: io.host, port: io.port });
    const hello: NodeToTsrun = { t: 'hello', key: io.key, nodeId };
    socket.write(`${JSON.stringify(await auth.seal(hello))}\n`);
    socket.on('error', () => {});
    return new IoUplink(socket);
  }

  send(message: NodeToTsrun): void {
    if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  onMessage(listener: (message: TsrunToNode) => void): void {
    const { maxMessageBytes } = inputLimits();
    this.socket.on(
      'data',
      lineReader(
        (message) => listener(message as TsrunToNode),
        () => {},
        // What tsrun sends (stdin, signals) is small: a longer line is not tsrun.
        { maxBytes: () => maxMessageBytes, onTooLong: () => this.socket.destroy() },
      ),
    );
  }

  onClose(listener: () => void): void {
    this.socket.on('close', listener);
  }

  /** Ends the connection once everything sent has been written. */
  end(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.end(() => resolve());
      this.socket.once('close', () => resolve());
    });
  }
}
