// The I/O connections between tsrun and the embedded step host, both on this host and both
// the state directory's owner: nothing is sealed (no auth plugin to load for them). What keeps
// others off tsrun's loopback I/O port is the step's random 128-bit key, which a node's hello
// must carry and which travels only over the state directory's owner-only Unix socket.
import type { MessageAuth } from './message-auth.js';

export const localAuth: MessageAuth = {
  type: 'auth/none',
  seal: async (message) => message,
  open: async (received) => ({ ok: true, message: received, identity: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, host: null } }),
};
