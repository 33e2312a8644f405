// How a peer proves who sent a message over the network (DESIGN.md §8): the cluster's auth
// plugin seals each outgoing message with a credential and opens each incoming one. Over the
// controller's owner-only Unix socket nothing is sealed (the socket's permissions are the
// check, as before); every TCP peer — tsctld, tsstepd, tsrun — seals and opens.
export interface PeerIdentity {
  uid: number;
  gid: number;
  host: string | null;
}

export type OpenedMessage =
  | { ok: true; message: Record<string, unknown>; identity: PeerIdentity }
  | { ok: false; reason: string };

export interface MessageAuth {
  /** The plugin's `plugin_type`, e.g. `auth/hmac`. */
  readonly type: string;
  /** The message with its credential added. */
  seal(message: object): Promise<object>;
  /** Checks a received message's credential; `peer` names the sender's address in refusals. */
  open(received: Record<string, unknown>, peer: string): Promise<OpenedMessage>;
}
