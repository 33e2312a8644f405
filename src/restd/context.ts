// What tsrestd's handlers (and the dashboard, dashboard/index.ts) reach: the controller, the
// cluster's name and state directory, and the way a request is authenticated.
import type { FastifyRequest } from 'fastify';
import type { ControllerLink } from './controller-link.js';
import type { AuthOutcome } from './auth.js';
import type { Logger } from '../core/log.js';

export interface RestContext {
  controller: ControllerLink;
  clusterName: string;
  /** The controller's host as `scontrol ping` names it: control.address's host, else this one. */
  controllerHost: string;
  stateDir: string;
  log: Logger;
  /** Who sent `request` (token headers, or the peer of the local socket), or why nobody is known. */
  authenticate(request: FastifyRequest): Promise<AuthOutcome>;
}
