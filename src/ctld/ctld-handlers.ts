// The type of the controller's handler table: one handler per request of CTLD_BODIES, each
// given the body its schema checked. Its own file, so the handler groups need not import
// rpc-handlers.ts (which imports them) to be typed.
import type { CTLD_BODIES } from '../protocol/ctld-messages.js';
import type { HandlerTable } from '../net/rpc-server.js';

export type CtldHandlers = HandlerTable<typeof CTLD_BODIES>;
