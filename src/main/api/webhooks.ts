// POST /api/webhooks/stripe (issue 53): Stripe's events, outside /api/v1 and
// without a bearer token: what proves an event is Stripe's is its
// `Stripe-Signature` over the raw body, made with the endpoint secret of the
// organization the event names (a payment link's metadata carries it). A
// signature that does not verify is answered 400 in the error envelope and
// nothing is written. The secret and the key are the organization's Stripe
// connector's credentials (connectors/stripe/credentials.ts).
import express, { Router, type Request, type Response } from 'express';
import { LedgerError, notFound } from '../ledger/core/errors';
import type { Ledger } from '../ledger/core/storage';
import { stripeBase, stripeClient } from '../connectors/stripe/client';
import { stripeCredentialsOf } from '../connectors/stripe/credentials';
import { applyStripeEvent } from '../connectors/stripe/webhook';
import { OutsideError } from '../edge/http';
import { BODY_LIMIT, sendJson } from './http';

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

const badSignature = (message: string) => new LedgerError('validation_failed', `Stripe-Signature: ${message}`, [{ field: 'Stripe-Signature', message }]);

/** The organization an event names (metadata.organization of its object), read before it is verified: only to find whose secret verifies it. */
function organizationNamed(raw: Buffer): string | null {
  try {
    const event = JSON.parse(raw.toString('utf8')) as { data?: { object?: { metadata?: { organization?: unknown } } } };
    const org = event.data?.object?.metadata?.organization;
    return typeof org === 'string' ? org : null;
  } catch {
    throw new LedgerError('invalid_json', 'The body is not JSON.', null);
  }
}

export function stripeWebhookRouter(ledger: Ledger): Router {
  const router = Router();
  router.post(STRIPE_WEBHOOK_PATH, express.raw({ type: () => true, limit: BODY_LIMIT }), async (req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.headers['stripe-signature'];
    if (typeof signature !== 'string' || !signature) throw badSignature('missing: Stripe signs every event it sends');
    const orgId = organizationNamed(raw);
    if (!orgId) throw badSignature('the event names no organization of these books (metadata.organization), so no secret can verify it');
    const orgSeq = (await ledger.stmt('SELECT seq FROM organizations WHERE id = ?').pluck().get(orgId)) as number | undefined;
    if (orgSeq === undefined) throw notFound('organization', orgId);
    await ledger.forOrg(orgSeq, async () => {
      const credentials = await stripeCredentialsOf(ledger, orgSeq);
      if (!credentials?.webhookSecret)
        throw new LedgerError('not_found', 'This organization takes no Stripe events: its Stripe connector has no webhook secret.', { resource: 'stripe webhook' });
      const stripe = await stripeClient(credentials.key, stripeBase());
      let event;
      try {
        event = stripe.webhooks.constructEvent(raw, signature, credentials.webhookSecret);
      } catch {
        throw badSignature('does not verify with this organization’s endpoint secret (or is too old)');
      }
      try {
        sendJson(res, 200, { received: true, ...(await applyStripeEvent(ledger, orgSeq, event, stripe)) });
      } catch (error) {
        // Stripe could not be asked for the payment: a 503, so that Stripe sends the event again later.
        if (error instanceof OutsideError) throw new LedgerError('unavailable', error.message, { service: 'Stripe', reason: error.reason });
        throw error;
      }
    });
  });
  return router;
}
