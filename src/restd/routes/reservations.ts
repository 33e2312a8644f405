// GET /slurm/v0.0.38/reservations and /reservation/{reservation_name}: the controller's advance
// reservations (convert/reservation.ts); an unknown name as 22.05 answers it (errno 2053 under
// `errno`, status 500, an empty list).
import type { ReservationView } from '../../protocol/reservation.js';
import { reservationToData } from '../convert/reservation.js';
import { RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import { pathParam, updateTime, type RestRoute } from '../route.js';

export const reservationsRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/reservations',
  operationId: 'slurm_v0_0_38_get_reservations',
  summary: 'get all reservation info',
  parameters: [updateTime],
  response: 'v0.0.38_reservations_response',
  source: 'slurm_load_reservations',
  style: 'errno',
  async handle(_request, ctx) {
    const views = await ctx.controller.call<ReservationView[]>('resv_list');
    return { meta: restMeta(), errors: [], reservations: views.map(reservationToData) };
  },
};

export const reservationRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/reservation/{reservation_name}',
  operationId: 'slurm_v0_0_38_get_reservation',
  summary: 'get reservation info',
  parameters: [pathParam('reservation_name', 'Slurm Reservation Name'), updateTime],
  response: 'v0.0.38_reservations_response',
  source: 'slurm_load_reservations',
  style: 'errno',
  emptyList: 'reservations',
  async handle(request, ctx) {
    const name = request.params.reservation_name!;
    const found = (await ctx.controller.call<ReservationView[]>('resv_list')).find((r) => r.name === name);
    if (!found) throw new RestError('ESLURM_RESERVATION_INVALID', `Unable to find reservation ${name}`, 'slurm_load_reservations', { style: 'errno' });
    return { meta: restMeta(), errors: [], reservations: [reservationToData(found)] };
  },
};
