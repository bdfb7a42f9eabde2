// One named method per route of the served document, grouped by resource. Each is a typed openapi-fetch
// call: paths, parameters, bodies and answers all come from the generated schema, so a route the API
// changes breaks the build here first.
import type { Client } from 'openapi-fetch';
import { ok } from './errors.ts';
import type { Body, paths, Query } from './types.ts';

type Api = Client<paths>;
const id = (value: string) => ({ path: { id: value } });

export function routeMethods(api: Api, ingest: Api) {
  return {
    health: () => ok(api.GET('/health')),
    openapi: () => ok(api.GET('/api/v1/openapi.json')),
    auth: {
      login: (body: Body<'/api/v1/auth/login'>) => ok(api.POST('/api/v1/auth/login', { body })),
      logout: () => ok(api.POST('/api/v1/auth/logout')),
      logoutAll: () => ok(api.POST('/api/v1/auth/logout-all')),
      me: () => ok(api.GET('/api/v1/auth/me')),
      /** Always refused (403): accounts are made by an operator. Here so every route has a method. */
      signup: () => ok(api.POST('/api/v1/auth/signup')),
    },
    org: {
      get: () => ok(api.GET('/api/v1/orgs')),
      rename: (name: string) => ok(api.PATCH('/api/v1/orgs', { body: { name } })),
    },
    keys: {
      list: () => ok(api.GET('/api/v1/keys')),
      create: (name: string) => ok(api.POST('/api/v1/keys', { body: { name } })),
      delete: (keyId: string) => ok(api.DELETE('/api/v1/keys/{id}', { params: id(keyId) })),
    },
    endpoints: {
      list: (query: Query<'/api/v1/endpoints'> = {}) =>
        ok(api.GET('/api/v1/endpoints', { params: { query } })),
      create: (body: Body<'/api/v1/endpoints'>) => ok(api.POST('/api/v1/endpoints', { body })),
      get: (endpointId: string) => ok(api.GET('/api/v1/endpoints/{id}', { params: id(endpointId) })),
      update: (endpointId: string, body: Body<'/api/v1/endpoints/{id}', 'patch'>) =>
        ok(api.PATCH('/api/v1/endpoints/{id}', { params: id(endpointId), body })),
      delete: (endpointId: string) => ok(api.DELETE('/api/v1/endpoints/{id}', { params: id(endpointId) })),
    },
    targets: {
      list: (query: Query<'/api/v1/targets'> = {}) => ok(api.GET('/api/v1/targets', { params: { query } })),
      create: (body: Body<'/api/v1/targets'>) => ok(api.POST('/api/v1/targets', { body })),
      get: (targetId: string) => ok(api.GET('/api/v1/targets/{id}', { params: id(targetId) })),
      update: (targetId: string, body: Body<'/api/v1/targets/{id}', 'patch'>) =>
        ok(api.PATCH('/api/v1/targets/{id}', { params: id(targetId), body })),
      delete: (targetId: string) => ok(api.DELETE('/api/v1/targets/{id}', { params: id(targetId) })),
      refresh: (targetId: string) => ok(api.POST('/api/v1/targets/{id}/refresh', { params: id(targetId) })),
      rotateSecret: (targetId: string) =>
        ok(api.POST('/api/v1/targets/{id}/signing-secret/rotate', { params: id(targetId) })),
      dropPreviousSecret: (targetId: string) =>
        ok(api.DELETE('/api/v1/targets/{id}/signing-secret/previous', { params: id(targetId) })),
      test: (targetId: string, body: Body<'/api/v1/targets/{id}/test'> = {}) =>
        ok(api.POST('/api/v1/targets/{id}/test', { params: id(targetId), body })),
      recover: (targetId: string, body: Body<'/api/v1/targets/{id}/recover'>) =>
        ok(api.POST('/api/v1/targets/{id}/recover', { params: id(targetId), body })),
    },
    recoveries: {
      get: (recoveryId: string) => ok(api.GET('/api/v1/recoveries/{id}', { params: id(recoveryId) })),
    },
    events: {
      list: (query: Query<'/api/v1/events'> = {}) => ok(api.GET('/api/v1/events', { params: { query } })),
      get: (eventId: string) => ok(api.GET('/api/v1/events/{id}', { params: id(eventId) })),
      replay: (eventId: string) => ok(api.POST('/api/v1/events/{id}/replay', { params: id(eventId) })),
    },
    stats: {
      get: (query: Query<'/api/v1/stats'> = {}) => ok(api.GET('/api/v1/stats', { params: { query } })),
      timeseries: (query: Query<'/api/v1/stats/timeseries'> = {}) =>
        ok(api.GET('/api/v1/stats/timeseries', { params: { query } })),
    },
    usage: () => ok(api.GET('/api/v1/usage')),
    billing: {
      get: () => ok(api.GET('/api/v1/billing')),
      checkout: () => ok(api.POST('/api/v1/billing/checkout')),
      portal: () => ok(api.GET('/api/v1/billing/portal')),
      invoices: () => ok(api.GET('/api/v1/billing/invoices')),
      reconciliation: () => ok(api.GET('/api/v1/billing/reconciliation')),
    },
    mailboxes: {
      list: (mailboxId: string, query: Query<'/api/v1/mailboxes/{mailbox_id}/messages'> = {}) =>
        ok(
          api.GET('/api/v1/mailboxes/{mailbox_id}/messages', {
            params: { path: { mailbox_id: mailboxId }, query },
          }),
        ),
      get: (messageId: string) =>
        ok(api.GET('/api/v1/mailbox-messages/{message_id}', { params: { path: { message_id: messageId } } })),
      claim: (messageId: string) =>
        ok(
          api.POST('/api/v1/mailbox-messages/{message_id}/claim', {
            params: { path: { message_id: messageId } },
          }),
        ),
      ack: (messageId: string) =>
        ok(
          api.POST('/api/v1/mailbox-messages/{message_id}/ack', {
            params: { path: { message_id: messageId } },
          }),
        ),
    },
    /** POST /e/{endpoint} (the legacy endpoint route); `send` is the one for targets. */
    sendToEndpoint: (endpointId: string, payload: Body<'/e/{endpoint_id}'>, type?: string) =>
      ok(
        ingest.POST('/e/{endpoint_id}', {
          params: { path: { endpoint_id: endpointId }, header: type ? { 'X-Event-Type': type } : {} },
          body: payload,
        }),
      ),
  };
}
