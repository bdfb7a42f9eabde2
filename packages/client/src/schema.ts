// Generated from openapi.json by `pnpm --filter @evds/client generate` (openapi-typescript). Do not edit:
// a test fails when this file or openapi.json drifts from the document the API serves.

export interface paths {
    "/api/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disabled: workspaces are provisioned by the operator */
        post: operations["postAuthSignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange email and password for a session token (7 days) */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the current session */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke every session of the current user */
        post: operations["postAuthLogoutAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller: user (null for a key whose creator is gone), organization and credential */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's organization */
        get: operations["getOrgs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the caller's organization */
        patch: operations["patchOrgs"];
        trace?: never;
    };
    "/api/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's API keys (prefix only) */
        get: operations["getKeys"];
        put?: never;
        /** Create an API key; the full key is returned only here */
        post: operations["postKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an API key (not the last one, nor the one making the request) */
        delete: operations["deleteKeysId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's webhook endpoints, oldest first; all of them, or one page when limit or after is given */
        get: operations["getEndpoints"];
        put?: never;
        /** Create a webhook endpoint; its signing secret is returned only here */
        post: operations["postEndpoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint (never its secret) */
        get: operations["getEndpointsId"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint; its events stay readable */
        delete: operations["deleteEndpointsId"];
        options?: never;
        head?: never;
        /** Change any of name, url, description, event_types, enabled; verify_inbound_signatures=true turns producer signatures on and returns the inbound secret once, false turns them off */
        patch: operations["patchEndpointsId"];
        trace?: never;
    };
    "/api/v1/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's targets of every kind, oldest first, each with its delivery health; all of them, or one page when limit or after is given */
        get: operations["getTargets"];
        put?: never;
        /** Create a webhook, mailbox or a2a target; a webhook answer carries its signing secret, once; an a2a target is created from its Agent Card (A2A v1.0, an HTTP+JSON 1.x interface with an https URL) */
        post: operations["postTargets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/targets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One target with its delivery health (never its secrets) */
        get: operations["getTargetsId"];
        put?: never;
        post?: never;
        /** Delete a target; its events and messages stay readable */
        delete: operations["deleteTargetsId"];
        options?: never;
        head?: never;
        /** Change any of name, description, enabled; enabling a disabled target clears disabled_reason and its failing run and closes its circuit */
        patch: operations["patchTargetsId"];
        trace?: never;
    };
    "/api/v1/targets/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read an a2a target's Agent Card again and replace its cached interface */
        post: operations["postTargetsIdRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/targets/{id}/signing-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a signing-secret rotation: returns the new secret once; the old one stays valid as the previous secret (replacing any earlier previous) until it is dropped */
        post: operations["postTargetsIdSigningSecretRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/targets/{id}/signing-secret/previous": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a rotation: deliveries are signed with the current secret only */
        delete: operations["deleteTargetsIdSigningSecretPrevious"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events (newest first) with filters, offset paging and a keyset cursor (after / next_cursor). Events past record retention (EVENT_RETENTION_SECONDS) are not listed nor counted */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event with its payload (byte for byte) and every delivery attempt. An event past record retention (EVENT_RETENTION_SECONDS) answers 404 */
        get: operations["getEventsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send an event again as a new event (no new usage); the original becomes REPLAYED once settled. Gated as ingestion is: billing, the target's state, and the target's ingest window, which a replay counts in */
        post: operations["postEventsIdReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery and mailbox statistics over a window (default 24h) */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/targets/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a sample event to the target through the real pipeline (archived, queued, delivered by the workers with attempts logged; a message for a mailbox), marked `test` and writing no usage record. Gated as ingestion is: billing, the target's state, its event_types filter, its max_payload_bytes, and its ingest window, in which it counts. The body is optional: none or {} sends the sample */
        post: operations["postTargetsIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stats/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery attempts (webhook and a2a) over a window, in buckets by outcome with duration percentiles. Buckets are aligned to their size in Unix time and cover the whole window (window/bucket + 1 of them, at most 700). Counts are exact. Percentiles come from a histogram of durations in log-spaced buckets (each 10% wider than the last), interpolated as percentile_cont does: each is within 5% of (the exact value + 1 ms), rounded to whole milliseconds, for durations under an hour */
        get: operations["getStatsTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/targets/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay in the background, each once and as a single replay would, the events of a target created in [since, until) with the given statuses. Gated as ingestion is: billing, the target's state, and the target's ingest window, in which the request counts once. One recovery of a target runs at a time: another is refused until it has finished. A recovery running when the workspace becomes billing-blocked stops, failed, with a failure_reason saying so */
        post: operations["postTargetsIdRecover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/recoveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A recovery and its progress */
        get: operations["getRecoveriesId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current month's usage from the local ledger, with the estimated charge */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's billing status and the published price */
        get: operations["getBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A payment-processor checkout session; the server fixes price and return URLs (body fields are ignored) */
        post: operations["postBillingCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A short-lived URL of the payment processor's customer portal */
        get: operations["getBillingPortal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Up to 12 recent invoices, newest first (empty while live billing is disabled) */
        get: operations["getBillingInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/reconciliation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current month's local ledger against the processor's meter and latest invoice */
        get: operations["getBillingReconciliation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reserved for the payment processor (not a customer route): a JSON event {type, customer_id} signed in X-Billing-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> */
        post: operations["postBillingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mailboxes/{mailbox_id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List messages oldest first, optionally by state, with cursor paging; listing is free and changes nothing (an API key or a session: the dashboard lists read-only; claim and ack take keys). A page holds at most `limit` messages and at most 1048576 bytes of payloads (a larger first message still comes alone), so it may hold fewer than `limit` with `next_cursor` set */
        get: operations["getMailboxesMailboxIdMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mailbox-messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message with its payload (byte for byte); reading changes nothing, with an API key or a session alike */
        get: operations["getMailboxMessagesMessageId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mailbox-messages/{message_id}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Claim a message for this API key under a 300-second lease; the holder claiming again extends the lease */
        post: operations["postMailboxMessagesMessageIdClaim"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mailbox-messages/{message_id}/ack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge a message; only the API key holding the active claim may. Repeating it with that key answers the same */
        post: operations["postMailboxMessagesMessageIdAck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/e/{endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an event for a webhook endpoint */
        post: operations["postEEndpointId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/t/{target_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an item for a target of any kind (optional Idempotency-Key) */
        post: operations["postTTargetId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness of the service and of the Postgres and Redis it depends on */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @description Human-readable message */
            error: string;
            /** @description Stable snake_case reference, e.g. validation_failed */
            code: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    postAuthSignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description always */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description more than 3 calls in 15 minutes from this IP */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description logged in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        session_token: string;
                        expires_at: number;
                        user: {
                            id: string;
                            email: string;
                            name: string;
                            org_id: string;
                            created_at: number;
                        };
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description wrong email or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description more than 5 attempts in 15 minutes from this IP, or too many from its IPv6 /64 or for this account */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many logins waiting for a password check in this process (unavailable); Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        logged_out: true;
                    };
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogoutAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        revoked_sessions: number;
                    };
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            name: string;
                            org_id: string;
                            created_at: number;
                        } | null;
                        org: {
                            id: string;
                            name: string;
                            slug: string;
                            /** @enum {string} */
                            billing_status: "pending" | "active" | "grace" | "suspended" | "exempt";
                            billing_grace_ends_at: number | null;
                            created_at: number;
                        };
                        auth: {
                            /** @enum {string} */
                            method: "session" | "api_key";
                            key_id?: string;
                        };
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrgs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        org: {
                            id: string;
                            name: string;
                            slug: string;
                            /** @enum {string} */
                            billing_status: "pending" | "active" | "grace" | "suspended" | "exempt";
                            billing_grace_ends_at: number | null;
                            created_at: number;
                        };
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchOrgs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description renamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        updated: true;
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: {
                            id: string;
                            name: string;
                            /** @description The first 12 characters of the key */
                            prefix: string;
                            created_at: number;
                            /** @description When the key last authenticated a request that was accepted, to within a minute (null: never) */
                            last_used_at: number | null;
                        }[];
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        key: string;
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing state pending or suspended */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the workspace already holds its maximum of keys */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteKeysId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description last key, or the key in use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEndpoints: {
        parameters: {
            query?: {
                /** @description 1-100: answer one page with `next_cursor`; without limit and after, every target is listed (no next_cursor); with after alone, pages of 100 */
                limit?: string;
                /** @description Cursor: the `next_cursor` of the previous page */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description endpoints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoints: {
                            id: string;
                            name: string;
                            url: string;
                            /** @description Empty when none was given */
                            description: string;
                            /** @description A JSON-encoded array of event types, e.g. "[\"a\",\"b\"]"; "[]" receives every type */
                            event_types: string;
                            max_payload_bytes: number;
                            max_retries: number;
                            retry_interval_seconds: number;
                            enabled: boolean;
                            verify_inbound_signatures: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                        }[];
                        /** @description Only when paging (limit or after given): pass as `after` for the next page; null on the last page */
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description a bad query parameter (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description HTTPS URL; refused (422) when it points at an address that is not public */
                    url: string;
                    description?: string;
                    /** @description Event types this target receives; empty (the default) receives every type */
                    event_types?: string[];
                };
            };
        };
        responses: {
            /** @description created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description whsec_ + base64 of 32 random bytes; never shown again */
                        secret: string;
                    };
                };
            };
            /** @description invalid body (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the workspace already holds its maximum of targets, every kind together (target_limit; TARGETS_PER_ORG, 1000 by default) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description url refused by the network policy (not a public address) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEndpointsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: {
                            id: string;
                            name: string;
                            url: string;
                            /** @description Empty when none was given */
                            description: string;
                            /** @description A JSON-encoded array of event types, e.g. "[\"a\",\"b\"]"; "[]" receives every type */
                            event_types: string;
                            max_payload_bytes: number;
                            max_retries: number;
                            retry_interval_seconds: number;
                            enabled: boolean;
                            verify_inbound_signatures: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                        };
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such endpoint in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEndpointsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such endpoint in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchEndpointsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description HTTPS URL; refused (422) when it points at an address that is not public */
                    url?: string;
                    description?: string;
                    /** @description Event types this target receives; empty (the default) receives every type */
                    event_types?: string[];
                    enabled?: boolean;
                    verify_inbound_signatures?: boolean;
                };
            };
        };
        responses: {
            /** @description the updated endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: {
                            id: string;
                            name: string;
                            url: string;
                            /** @description Empty when none was given */
                            description: string;
                            /** @description A JSON-encoded array of event types, e.g. "[\"a\",\"b\"]"; "[]" receives every type */
                            event_types: string;
                            enabled: boolean;
                            verify_inbound_signatures: boolean;
                            updated_at: number;
                            /** @description Only in the answer that turned verify_inbound_signatures on; never shown again */
                            inbound_secret?: string;
                        };
                    };
                };
            };
            /** @description invalid body (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such endpoint in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description url refused by the network policy (not a public address) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTargets: {
        parameters: {
            query?: {
                /** @description 1-100: answer one page with `next_cursor`; without limit and after, every target is listed (no next_cursor); with after alone, pages of 100 */
                limit?: string;
                /** @description Cursor: the `next_cursor` of the previous page */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description targets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        targets: ({
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "webhook";
                            url: string;
                            /** @enum {string} */
                            signing_scheme: "standard-webhooks-v1";
                            /** @description True while a signing-secret rotation is under way */
                            has_previous_signing_secret: boolean;
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "mailbox";
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "a2a";
                            /** @description The A2A interface URL taken from the Agent Card */
                            url: string | null;
                            agent_card_url: string | null;
                            /** @description The interface chosen from the Agent Card: its first HTTP+JSON 1.x entry with an allowed https URL */
                            interface: {
                                url: string;
                                /** @description The protocol binding as the card names it (HTTP+JSON) */
                                binding: string;
                                /** @description The A2A protocol version of the interface (1.x) */
                                version: string;
                                /** @description Sent as a path segment and in the body when the card gives one */
                                tenant?: string;
                            } | null;
                            /** @description When the Agent Card was last read (Unix seconds) */
                            card_fetched_at: number | null;
                            /** @description The bearer token is never shown */
                            auth: {
                                /** @enum {string} */
                                type: "none" | "bearer";
                            };
                        })[];
                        /** @description Only when paging (limit or after given): pass as `after` for the next page; null on the last page */
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description a bad query parameter (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTargets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    kind: "webhook";
                    name: string;
                    /** @description HTTPS URL; refused (422) when it points at an address that is not public */
                    url: string;
                    description?: string;
                } | {
                    /** @enum {string} */
                    kind: "mailbox";
                    name: string;
                    description?: string;
                } | {
                    /** @enum {string} */
                    kind: "a2a";
                    name: string;
                    description?: string;
                    /** @description HTTPS URL of the Agent Card, fetched without following redirects */
                    agent_card_url: string;
                    /** @description How deliveries authenticate to the agent; a bearer token is stored encrypted and never returned */
                    auth: {
                        /** @enum {string} */
                        type: "none";
                    } | {
                        /** @enum {string} */
                        type: "bearer";
                        token: string;
                    };
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        target: {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "webhook";
                            url: string;
                            /** @enum {string} */
                            signing_scheme: "standard-webhooks-v1";
                            /** @description True while a signing-secret rotation is under way */
                            has_previous_signing_secret: boolean;
                            /** @description whsec_ + base64 of 32 random bytes; returned only here and by rotate */
                            secret: string;
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "mailbox";
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "a2a";
                            /** @description The A2A interface URL taken from the Agent Card */
                            url: string | null;
                            agent_card_url: string | null;
                            /** @description The interface chosen from the Agent Card: its first HTTP+JSON 1.x entry with an allowed https URL */
                            interface: {
                                url: string;
                                /** @description The protocol binding as the card names it (HTTP+JSON) */
                                binding: string;
                                /** @description The A2A protocol version of the interface (1.x) */
                                version: string;
                                /** @description Sent as a path segment and in the body when the card gives one */
                                tenant?: string;
                            } | null;
                            /** @description When the Agent Card was last read (Unix seconds) */
                            card_fetched_at: number | null;
                            /** @description The bearer token is never shown */
                            auth: {
                                /** @enum {string} */
                                type: "none" | "bearer";
                            };
                        };
                        /** @description a2a targets only */
                        warnings?: string[];
                    };
                };
            };
            /** @description invalid body (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the workspace already holds its maximum of targets, every kind together (target_limit; TARGETS_PER_ORG, 1000 by default) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description url or agent_card_url refused by the network policy (not a public address); an Agent Card that cannot be fetched (unreachable, redirect, too large) or used (not JSON, pre-1.0, no usable A2A v1 HTTP+JSON interface) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTargetsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the target */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        target: {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "webhook";
                            url: string;
                            /** @enum {string} */
                            signing_scheme: "standard-webhooks-v1";
                            /** @description True while a signing-secret rotation is under way */
                            has_previous_signing_secret: boolean;
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "mailbox";
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "a2a";
                            /** @description The A2A interface URL taken from the Agent Card */
                            url: string | null;
                            agent_card_url: string | null;
                            /** @description The interface chosen from the Agent Card: its first HTTP+JSON 1.x entry with an allowed https URL */
                            interface: {
                                url: string;
                                /** @description The protocol binding as the card names it (HTTP+JSON) */
                                binding: string;
                                /** @description The A2A protocol version of the interface (1.x) */
                                version: string;
                                /** @description Sent as a path segment and in the body when the card gives one */
                                tenant?: string;
                            } | null;
                            /** @description When the Agent Card was last read (Unix seconds) */
                            card_fetched_at: number | null;
                            /** @description The bearer token is never shown */
                            auth: {
                                /** @enum {string} */
                                type: "none" | "bearer";
                            };
                        };
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTargetsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchTargetsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description the updated target */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        target: {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "webhook";
                            url: string;
                            /** @enum {string} */
                            signing_scheme: "standard-webhooks-v1";
                            /** @description True while a signing-secret rotation is under way */
                            has_previous_signing_secret: boolean;
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "mailbox";
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "a2a";
                            /** @description The A2A interface URL taken from the Agent Card */
                            url: string | null;
                            agent_card_url: string | null;
                            /** @description The interface chosen from the Agent Card: its first HTTP+JSON 1.x entry with an allowed https URL */
                            interface: {
                                url: string;
                                /** @description The protocol binding as the card names it (HTTP+JSON) */
                                binding: string;
                                /** @description The A2A protocol version of the interface (1.x) */
                                version: string;
                                /** @description Sent as a path segment and in the body when the card gives one */
                                tenant?: string;
                            } | null;
                            /** @description When the Agent Card was last read (Unix seconds) */
                            card_fetched_at: number | null;
                            /** @description The bearer token is never shown */
                            auth: {
                                /** @enum {string} */
                                type: "none" | "bearer";
                            };
                        };
                    };
                };
            };
            /** @description invalid body (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTargetsIdRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description refreshed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        target: {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "webhook";
                            url: string;
                            /** @enum {string} */
                            signing_scheme: "standard-webhooks-v1";
                            /** @description True while a signing-secret rotation is under way */
                            has_previous_signing_secret: boolean;
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "mailbox";
                        } | {
                            id: string;
                            name: string;
                            /** @description Empty when none was given */
                            description: string;
                            enabled: boolean;
                            created_at: number;
                            updated_at: number;
                            /** @description Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand */
                            disabled_reason: string | null;
                            /** @description The target's delivery health */
                            health: {
                                /**
                                 * @description failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)
                                 * @enum {string}
                                 */
                                status: "healthy" | "failing" | "unknown";
                                /** @description The first failed attempt after the last success (Unix seconds) */
                                failing_since: number | null;
                                /** @description Last successful attempt, to within a minute (Unix seconds) */
                                last_success_at: number | null;
                                /** @description Last failed attempt (Unix seconds) */
                                last_failure_at: number | null;
                                /** @description Failed attempts since the last success */
                                consecutive_failures: number;
                                /**
                                 * @description open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now
                                 * @enum {string|null}
                                 */
                                circuit: "closed" | "open" | "half_open" | null;
                                /** @description When an open circuit lets its next probe through (Unix seconds) */
                                next_probe_at: number | null;
                            };
                            /** @enum {string} */
                            kind: "a2a";
                            /** @description The A2A interface URL taken from the Agent Card */
                            url: string | null;
                            agent_card_url: string | null;
                            /** @description The interface chosen from the Agent Card: its first HTTP+JSON 1.x entry with an allowed https URL */
                            interface: {
                                url: string;
                                /** @description The protocol binding as the card names it (HTTP+JSON) */
                                binding: string;
                                /** @description The A2A protocol version of the interface (1.x) */
                                version: string;
                                /** @description Sent as a path segment and in the body when the card gives one */
                                tenant?: string;
                            } | null;
                            /** @description When the Agent Card was last read (Unix seconds) */
                            card_fetched_at: number | null;
                            /** @description The bearer token is never shown */
                            auth: {
                                /** @enum {string} */
                                type: "none" | "bearer";
                            };
                        };
                        /** @description Advice about the card that did not prevent its use (e.g. it asks for auth the target does not send) */
                        warnings: string[];
                    };
                };
            };
            /** @description the target is not an a2a target (wrong_target_kind) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the card cannot be read or used now; the target keeps its interface */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTargetsIdSigningSecretRotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description rotated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The new current secret; never shown again */
                        secret: string;
                        /** @enum {boolean} */
                        has_previous_signing_secret: true;
                    };
                };
            };
            /** @description the target is not a webhook target (it has no signing secret) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTargetsIdSigningSecretPrevious: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description previous secret dropped (also when there was none) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        has_previous_signing_secret: false;
                    };
                };
            };
            /** @description the target is not a webhook target (it has no signing secret) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvents: {
        parameters: {
            query?: {
                /** @description default 50, max 100 */
                limit?: string;
                offset?: string;
                endpoint_id?: string;
                status?: "QUEUED" | "DELIVERED" | "FAILED" | "RETRYING" | "EXPIRED" | "REPLAYED";
                event_type?: string;
                correlation_id?: string;
                /** @description an event id: the page starts after it (a keyset cursor, as cheap at any depth); see next_cursor */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            id: string;
                            endpoint_id: string;
                            event_type: string | null;
                            /** @enum {string} */
                            status: "QUEUED" | "DELIVERED" | "FAILED" | "RETRYING" | "EXPIRED" | "REPLAYED";
                            /** @description ISO 8601 UTC */
                            created_at: string;
                            /** @description sent by POST /api/v1/targets/{id}/test (no usage record), or a replay of such an event */
                            test: boolean;
                        }[];
                        total: number;
                        limit: number;
                        offset: number;
                        /** @description pass as `after` for the next page; null on the last page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description bad parameters, or `after` is not a visible event of this organization */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEventsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        endpoint_id: string;
                        event_type: string | null;
                        /** @enum {string} */
                        status: "QUEUED" | "DELIVERED" | "FAILED" | "RETRYING" | "EXPIRED" | "REPLAYED";
                        /** @description ISO 8601 UTC */
                        created_at: string;
                        /** @description sent by POST /api/v1/targets/{id}/test (no usage record), or a replay of such an event */
                        test: boolean;
                        org_id: string;
                        target_id: string;
                        /** @enum {string} */
                        kind: "webhook" | "a2a";
                        correlation_id: string | null;
                        source_event_id: string | null;
                        /** @description the accepted JSON, byte for byte; null once payload retention has dropped it */
                        payload?: unknown;
                        payload_size: number;
                        attempt_count: number;
                        next_attempt_at: string | null;
                        /** @description why the event ended FAILED or EXPIRED */
                        final_reason: string | null;
                        updated_at: string;
                        delivery_attempts: {
                            /** @description da_ + 32 hex */
                            id: string;
                            attempt_number: number;
                            status_code: number | null;
                            duration_ms: number;
                            /** @description ISO 8601 UTC */
                            attempted_at: string;
                            /** @description first 4 KiB of the answer */
                            response_body: string | null;
                            /** @description why no answer came: DNS, refused connection, TLS, time-out, policy */
                            error: string | null;
                            a2a_task_id: string | null;
                            a2a_task_state: string | null;
                            /** @description the 429 or 503 answer's Retry-After header, as sent */
                            retry_after: string | null;
                            /** @description when the next attempt was scheduled (ISO 8601 UTC), for an attempt that left the event RETRYING */
                            next_attempt_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such event in this organization, or past record retention */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postEventsIdReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "QUEUED";
                        source_event_id: string;
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing pending or suspended (as for ingestion) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such event in this organization, or past record retention */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the event's target is disabled (target_disabled, as for ingestion) or deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the payload is past retention */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the target's ingest window is full (INGEST_RATE_LIMIT per INGEST_RATE_WINDOW_SECONDS, shared with ingestion); Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStats: {
        parameters: {
            query?: {
                window?: "1h" | "24h" | "7d" | "30d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        window: string;
                        /** @description Unix seconds: the window start, moved back to a quarter hour (the counters are kept per 15 minutes) */
                        since: number;
                        events: {
                            total: number;
                            by_status: {
                                [key: string]: number;
                            };
                        };
                        attempts: {
                            total: number;
                            succeeded: number;
                            failed: number;
                        };
                        /** @description succeeded / total attempts, null without attempts */
                        success_rate: number | null;
                        /** @description Attempt durations' percentiles, read from the counters' latency histogram: within 5% of the exact value */
                        latency_ms: {
                            p50: number | null;
                            p95: number | null;
                            p99: number | null;
                        };
                        /** @description Mailbox messages created in the window, by their state now (as computed when read) */
                        mailboxes: {
                            UNREAD: number;
                            CLAIMED: number;
                            ACKNOWLEDGED: number;
                            EXPIRED: number;
                        };
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTargetsIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description default "evds.test", or the first of the target's event_types when its filter excludes that */
                    event_type?: string;
                    /** @description the JSON object sent; default a small sample saying it is a test, with the time it was sent */
                    payload?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description the test item, committed (and queued for webhook and a2a) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the event id for webhook and a2a targets (GET /api/v1/events/{id}); the message id for mailboxes (GET /api/v1/mailbox-messages/{message_id}) */
                        id: string;
                        target_id: string;
                        /** @enum {string} */
                        kind: "webhook" | "mailbox" | "a2a";
                        /**
                         * @description QUEUED for an event, UNREAD for a mailbox message
                         * @enum {string}
                         */
                        status: "QUEUED" | "UNREAD";
                        event_type: string;
                        /** @enum {boolean} */
                        test: true;
                    };
                };
            };
            /** @description a body that fails the schema (the message names the field), or not JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing pending or suspended (as for ingestion) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the target is disabled (target_disabled, as for ingestion) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the payload is over the target's max_payload_bytes, or the body over the API's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description event_type is not in the target's event_types (event_type_filtered; the message names them) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the target's ingest window is full (shared with ingestion); Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatsTimeseries: {
        parameters: {
            query?: {
                /** @description default 24h */
                window?: "1h" | "24h" | "7d" | "30d";
                /** @description default 15m for 1h, 1h for 24h, 6h for 7d, 1d for 30d */
                bucket?: "15m" | "1h" | "6h" | "1d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the buckets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        window: "1h" | "24h" | "7d" | "30d";
                        /** @enum {string} */
                        bucket: "15m" | "1h" | "6h" | "1d";
                        bucket_seconds: number;
                        /** @description Unix seconds: the start of the first bucket */
                        since: number;
                        /** @description every bucket, oldest first, zeros where nothing was attempted */
                        buckets: {
                            /** @description Unix seconds; the bucket is [start, start + bucket_seconds) */
                            start: number;
                            /** @description attempts started in the bucket that delivered (2xx, no error) */
                            succeeded: number;
                            /** @description every other attempt started in the bucket */
                            failed: number;
                            /** @description median duration of those attempts, from a histogram (see the route); null without attempts */
                            p50_ms: number | null;
                            /** @description 95th percentile duration, from the histogram */
                            p95_ms: number | null;
                            /** @description 99th percentile duration, from the histogram */
                            p99_ms: number | null;
                        }[];
                    };
                };
            };
            /** @description an unknown window or bucket, or another parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a bucket longer than the window, or a combination giving more than 700 buckets */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTargetsIdRecover: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unix seconds, inclusive: events created at or after it */
                    since: number;
                    /** @description Unix seconds, exclusive; defaults to (and is capped at) the time of the request, rounded up */
                    until?: number;
                    /** @description event statuses to replay; default ["FAILED", "EXPIRED"] */
                    statuses?: ("FAILED" | "EXPIRED" | "DELIVERED")[];
                };
            };
        };
        responses: {
            /** @description the recovery, started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        target_id: string;
                        /** @description Unix seconds, inclusive */
                        since: number;
                        /** @description Unix seconds, exclusive */
                        until: number;
                        statuses: ("QUEUED" | "DELIVERED" | "FAILED" | "RETRYING" | "EXPIRED" | "REPLAYED")[];
                        /** @enum {string} */
                        state: "running" | "completed" | "failed";
                        /** @description events that matched when the recovery was created */
                        matched: number;
                        /** @description new events created so far (QUEUED, source_event_id set, no usage) */
                        replayed: number;
                        /** @description matched events whose payload was past retention, so not replayed */
                        skipped: number;
                        /** @description why the recovery stopped, when state is failed */
                        failure_reason: string | null;
                        /** @description Unix seconds */
                        created_at: number;
                        /** @description Unix seconds; null while running */
                        finished_at: number | null;
                    };
                };
            };
            /** @description a body that fails the schema (the message names the field), since not before until, or a mailbox target (wrong_target_kind) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing pending or suspended (as for ingestion) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such target in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the target is disabled (target_disabled, as for ingestion) or deleted (conflict), or a recovery of it is still running (conflict; the message names its id): one runs per target at a time */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the target's ingest window is full (shared with ingestion); Retry-After says when to try again */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRecoveriesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the recovery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        target_id: string;
                        /** @description Unix seconds, inclusive */
                        since: number;
                        /** @description Unix seconds, exclusive */
                        until: number;
                        statuses: ("QUEUED" | "DELIVERED" | "FAILED" | "RETRYING" | "EXPIRED" | "REPLAYED")[];
                        /** @enum {string} */
                        state: "running" | "completed" | "failed";
                        /** @description events that matched when the recovery was created */
                        matched: number;
                        /** @description new events created so far (QUEUED, source_event_id set, no usage) */
                        replayed: number;
                        /** @description matched events whose payload was past retention, so not replayed */
                        skipped: number;
                        /** @description why the recovery stopped, when state is failed */
                        failure_reason: string | null;
                        /** @description Unix seconds */
                        created_at: number;
                        /** @description Unix seconds; null while running */
                        finished_at: number | null;
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such recovery in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        usage: {
                            /** @description First instant of the current calendar month, UTC (Unix seconds) */
                            period_start: number;
                            /** @description First instant of the next calendar month, UTC (exclusive) (Unix seconds) */
                            period_end: number;
                            /** @description Newly accepted items of every kind (webhook events, mailbox messages, a2a handoffs) this period; retries, replays, reads, claims, acks, rejected requests and idempotent duplicates never count */
                            accepted_events: number;
                            /** @description ceil(accepted_events / 1000); 0 for an exempt workspace */
                            estimated_units: number;
                            /** @description estimated_units × 10; 0 for an exempt workspace */
                            estimated_cents: number;
                            /** @description This period's usage records not yet reported to the payment processor (all of them while live billing is disabled) */
                            pending_meter_events: number;
                        };
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBilling: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description billing status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "pending" | "active" | "grace" | "suspended" | "exempt";
                        /** @description False during the beta: nothing is charged */
                        billing_enabled: boolean;
                        /** @description When the grace period ends; set only in state grace (Unix seconds) */
                        grace_ends_at: number | null;
                        has_payment_method: boolean;
                        /** @enum {string} */
                        currency: "usd";
                        /**
                         * @description Price of one unit, in US cents
                         * @enum {number}
                         */
                        price_cents: 10;
                        /**
                         * @description Accepted items per unit; usage is rounded up to whole units
                         * @enum {number}
                         */
                        unit_size: 1000;
                    };
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postBillingCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description checkout session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        url: string;
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description exempt workspaces are not billed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description live billing is disabled (billing_disabled) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBillingPortal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description portal session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        url: string;
                    };
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no processor customer yet (start with checkout) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description live billing is disabled (billing_disabled) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBillingInvoices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description invoices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Up to 12, newest first; empty without a processor customer */
                        invoices: {
                            id: string;
                            number: string | null;
                            /** @description Invoice date (Unix seconds) */
                            created_at: number;
                            /**
                             * @description failed: a payment attempt failed and the invoice is unpaid
                             * @enum {string}
                             */
                            status: "draft" | "open" | "paid" | "failed" | "void";
                            amount_due_cents: number;
                            amount_paid_cents: number;
                            currency: string;
                            hosted_invoice_url: string | null;
                        }[];
                        billing_enabled: boolean;
                    };
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBillingReconciliation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description reconciliation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description disabled: live billing is off; not_connected: no processor customer yet; pending: local usage records still wait to be reported; mismatch: the figures differ; reconciled: nothing waits and every figure matches
                         * @enum {string}
                         */
                        status: "disabled" | "not_connected" | "pending" | "mismatch" | "reconciled";
                        /** @description First instant of the current calendar month, UTC (Unix seconds) */
                        period_start: number;
                        /** @description First instant of the next calendar month, UTC (exclusive) (Unix seconds) */
                        period_end: number;
                        /** @description The local ledger for the current month */
                        local: {
                            /** @description Usage records of the period in the local ledger */
                            accepted_events: number;
                            /** @description Of those, not yet reported to the processor */
                            pending_meter_events: number;
                            /** @description ceil(accepted_events / 1000); 0 for an exempt workspace */
                            estimated_units: number;
                            /** @description estimated_units × 10; 0 for an exempt workspace */
                            estimated_cents: number;
                        };
                        /** @description Null while live billing is disabled or without a processor customer */
                        processor: {
                            /** @description Events in the processor's meter for the period */
                            metered_events: number;
                        } | null;
                        /** @description Null while live billing is disabled or without a processor customer */
                        differences: {
                            /** @description local.accepted_events − processor.metered_events */
                            events: number;
                            /** @description invoice.subtotal_cents − local.estimated_cents; null without this period's invoice */
                            cents: number | null;
                        } | null;
                        /** @description The processor's latest invoice for the current period; null while disabled or when there is none */
                        invoice: {
                            id: string;
                            number: string | null;
                            /** @enum {string} */
                            status: "draft" | "open" | "paid" | "failed" | "void";
                            subtotal_cents: number;
                            currency: string;
                            /** @description Invoice period start (Unix seconds) */
                            period_start: number;
                            /** @description Invoice period end (Unix seconds) */
                            period_end: number;
                        } | null;
                    };
                };
            };
            /** @description Missing, unknown, expired or revoked session token, or an API key where a session is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postBillingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed event received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        received: true;
                    };
                };
            };
            /** @description signed, but not a {type, customer_id} event */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description signature missing, wrong or older than 5 minutes */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description live billing is disabled or no webhook secret is configured: every call is refused */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMailboxesMailboxIdMessages: {
        parameters: {
            query?: {
                /** @description Only messages in this state (as computed when read) */
                status?: "UNREAD" | "CLAIMED" | "ACKNOWLEDGED" | "EXPIRED";
                /** @description default 50, max 100 */
                limit?: string;
                /** @description Cursor: the `next_cursor` of the previous page (a message id of this mailbox) */
                after?: string;
            };
            header?: never;
            path: {
                mailbox_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of messages; `next_cursor` is null on the last page, and set whenever messages remain (also when the byte budget ended the page early) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        messages: {
                            id: string;
                            mailbox_id: string;
                            /**
                             * @description Computed when read: a CLAIMED message whose lease has passed shows UNREAD, one past retention EXPIRED
                             * @enum {string}
                             */
                            state: "UNREAD" | "CLAIMED" | "ACKNOWLEDGED" | "EXPIRED";
                            event_type: string | null;
                            correlation_id: string | null;
                            /** @description The accepted JSON, byte for byte; null once the message is EXPIRED (retention drops it) */
                            payload?: unknown;
                            /** @description Bytes accepted */
                            payload_size: number;
                            /** @description Unix seconds */
                            created_at: number;
                            /** @description Unix seconds; end of retention: the message shows EXPIRED from then on */
                            expires_at: number;
                            /** @description Unix seconds; start of the active claim (kept when the holder extends it), or of the claim acknowledged */
                            claimed_at: number | null;
                            /** @description The API key holding the active claim, or the one that acknowledged the message */
                            claimed_by_key_id: string | null;
                            /** @description Unix seconds; while CLAIMED, when the lease passes unless the holder claims again */
                            lease_expires_at: number | null;
                            /** @description Unix seconds */
                            acknowledged_at: number | null;
                            /** @description Sent by POST /api/v1/targets/{id}/test (no usage record), not by a producer */
                            test: boolean;
                        }[];
                        /** @description Pass as `after` for the next page; null when there are no more messages */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A bad query parameter (the message names it), e.g. an `after` that is not a message of this mailbox */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMailboxMessagesMessageId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: {
                            id: string;
                            mailbox_id: string;
                            /**
                             * @description Computed when read: a CLAIMED message whose lease has passed shows UNREAD, one past retention EXPIRED
                             * @enum {string}
                             */
                            state: "UNREAD" | "CLAIMED" | "ACKNOWLEDGED" | "EXPIRED";
                            event_type: string | null;
                            correlation_id: string | null;
                            /** @description The accepted JSON, byte for byte; null once the message is EXPIRED (retention drops it) */
                            payload?: unknown;
                            /** @description Bytes accepted */
                            payload_size: number;
                            /** @description Unix seconds */
                            created_at: number;
                            /** @description Unix seconds; end of retention: the message shows EXPIRED from then on */
                            expires_at: number;
                            /** @description Unix seconds; start of the active claim (kept when the holder extends it), or of the claim acknowledged */
                            claimed_at: number | null;
                            /** @description The API key holding the active claim, or the one that acknowledged the message */
                            claimed_by_key_id: string | null;
                            /** @description Unix seconds; while CLAIMED, when the lease passes unless the holder claims again */
                            lease_expires_at: number | null;
                            /** @description Unix seconds */
                            acknowledged_at: number | null;
                            /** @description Sent by POST /api/v1/targets/{id}/test (no usage record), not by a producer */
                            test: boolean;
                        };
                    };
                };
            };
            /** @description Missing, malformed, unknown, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMailboxMessagesMessageIdClaim: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description claimed: the message is CLAIMED, with `lease_expires_at` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: {
                            id: string;
                            mailbox_id: string;
                            /**
                             * @description Computed when read: a CLAIMED message whose lease has passed shows UNREAD, one past retention EXPIRED
                             * @enum {string}
                             */
                            state: "UNREAD" | "CLAIMED" | "ACKNOWLEDGED" | "EXPIRED";
                            event_type: string | null;
                            correlation_id: string | null;
                            /** @description The accepted JSON, byte for byte; null once the message is EXPIRED (retention drops it) */
                            payload?: unknown;
                            /** @description Bytes accepted */
                            payload_size: number;
                            /** @description Unix seconds */
                            created_at: number;
                            /** @description Unix seconds; end of retention: the message shows EXPIRED from then on */
                            expires_at: number;
                            /** @description Unix seconds; start of the active claim (kept when the holder extends it), or of the claim acknowledged */
                            claimed_at: number | null;
                            /** @description The API key holding the active claim, or the one that acknowledged the message */
                            claimed_by_key_id: string | null;
                            /** @description Unix seconds; while CLAIMED, when the lease passes unless the holder claims again */
                            lease_expires_at: number | null;
                            /** @description Unix seconds */
                            acknowledged_at: number | null;
                            /** @description Sent by POST /api/v1/targets/{id}/test (no usage record), not by a producer */
                            test: boolean;
                        };
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key, or a session token where an API key is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another API key holds the message under an active lease (`lease_held`), or it is ACKNOWLEDGED or EXPIRED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMailboxMessagesMessageIdAck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description the message, ACKNOWLEDGED */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: {
                            id: string;
                            mailbox_id: string;
                            /**
                             * @description Computed when read: a CLAIMED message whose lease has passed shows UNREAD, one past retention EXPIRED
                             * @enum {string}
                             */
                            state: "UNREAD" | "CLAIMED" | "ACKNOWLEDGED" | "EXPIRED";
                            event_type: string | null;
                            correlation_id: string | null;
                            /** @description The accepted JSON, byte for byte; null once the message is EXPIRED (retention drops it) */
                            payload?: unknown;
                            /** @description Bytes accepted */
                            payload_size: number;
                            /** @description Unix seconds */
                            created_at: number;
                            /** @description Unix seconds; end of retention: the message shows EXPIRED from then on */
                            expires_at: number;
                            /** @description Unix seconds; start of the active claim (kept when the holder extends it), or of the claim acknowledged */
                            claimed_at: number | null;
                            /** @description The API key holding the active claim, or the one that acknowledged the message */
                            claimed_by_key_id: string | null;
                            /** @description Unix seconds; while CLAIMED, when the lease passes unless the holder claims again */
                            lease_expires_at: number | null;
                            /** @description Unix seconds */
                            acknowledged_at: number | null;
                            /** @description Sent by POST /api/v1/targets/{id}/test (no usage record), not by a producer */
                            test: boolean;
                        };
                    };
                };
            };
            /** @description Malformed JSON, or a query or body that fails the schema (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key, or a session token where an API key is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This API key does not hold an active claim: never claimed, lease passed, held or acknowledged by another key, or EXPIRED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body that is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address, or too many requests with this credential */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            [key: string]: unknown;
                        };
                        paths: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postEEndpointId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The item's event type (1-200 printable ASCII characters); wins over the body's event_type */
                "X-Event-Type"?: string;
                /** @description 1-128 characters of letters, digits, "-" and "_"; shown on the event and sent with its deliveries */
                "X-Correlation-ID"?: string;
                /** @description Unix seconds; required when the target verifies inbound signatures (300 s of skew at most) */
                "X-Service-Timestamp"?: string;
                /** @description v1=<hex HMAC-SHA256(inbound secret, "<timestamp>.<raw body>")>, when the target verifies them */
                "X-Service-Signature"?: string;
            };
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Read when X-Event-Type is absent */
                    event_type?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description committed and queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "QUEUED";
                    };
                };
            };
            /** @description Missing, malformed, unknown or revoked API key, or a session token where an API key is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing pending or suspended */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description inbound signature missing or wrong (when verification is on) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description target disabled; Idempotency-Key reused with another body */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body over the target's max_payload_bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description event type not in the endpoint's event_types */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description more than 100 requests in 60 s on this target (its window also counts replays and recoveries), or too many failed authentications from this address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTTargetId: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 characters. The same key with the same body within 24 h answers the first item (Idempotent-Replayed: true); with another body, 409 */
                "Idempotency-Key"?: string;
                /** @description The item's event type (1-200 printable ASCII characters); wins over the body's event_type */
                "X-Event-Type"?: string;
                /** @description 1-128 characters of letters, digits, "-" and "_"; shown on the event and sent with its deliveries */
                "X-Correlation-ID"?: string;
                /** @description Unix seconds; required when the target verifies inbound signatures (300 s of skew at most) */
                "X-Service-Timestamp"?: string;
                /** @description v1=<hex HMAC-SHA256(inbound secret, "<timestamp>.<raw body>")>, when the target verifies them */
                "X-Service-Signature"?: string;
            };
            path: {
                target_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description committed (and queued for webhook and a2a targets); also an idempotent duplicate */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        target_id: string;
                        /** @enum {string} */
                        kind: "webhook" | "mailbox" | "a2a";
                        /** @enum {string} */
                        status: "QUEUED" | "UNREAD";
                    };
                };
            };
            /** @description Missing, malformed, unknown or revoked API key, or a session token where an API key is required */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing pending or suspended */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description inbound signature missing or wrong (when verification is on) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown id, or an id that belongs to another organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description target disabled; Idempotency-Key reused with another body */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description body over the target's max_payload_bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description more than 100 requests in 60 s on this target (its window also counts replays and recoveries), or too many failed authentications from this address */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database (or Redis) unavailable; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Postgres and Redis both answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        checks: {
                            /** @enum {string} */
                            postgres: "ok" | "down";
                            /** @enum {string} */
                            redis: "ok" | "down";
                        };
                    };
                };
            };
            /** @description Internal error: a generic message, details go to the log only */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Postgres or Redis is down (named in `error`); retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                        error: string;
                        /** @enum {string} */
                        code: "unavailable";
                        checks: {
                            /** @enum {string} */
                            postgres: "ok" | "down";
                            /** @enum {string} */
                            redis: "ok" | "down";
                        };
                    };
                };
            };
        };
    };
}
