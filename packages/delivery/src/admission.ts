import type { DeliveryWork } from '@evds/db';
import type { Flow, Handed } from '@evds/flow';
import type { DeliveryMetrics } from '@evds/metrics';
import { attemptJobId, DelayedError, type Job, type Producer } from '@evds/queue';
import type { Logger } from '@evds/runtime';

export interface Admission {
  /**
   * Lets the attempt start (true), or holds it back (false): it waits as a delayed job, with no worker
   * slot and no attempt, still a live job to the sweeper. An item's own job is moved back to delayed and
   * DelayedError is thrown for BullMQ; an item of a group (no `job`) leaves it, as a delayed job of its
   * own under its attempt job id, and the group goes on with its other items.
   */
  enter(work: DeliveryWork, job: Job | undefined, token: string | undefined): Promise<boolean>;
  /** Frees the attempt's slot, moves the circuit by its outcome and wakes the parked jobs given room. */
  leave(work: DeliveryWork, job: Job | undefined, outcome: 'ok' | 'fail' | 'none'): Promise<void>;
}

const jobIdOf = (work: DeliveryWork, job: Job | undefined) =>
  job?.id ?? attemptJobId(work.id, work.attempt_count);
/** Attempt job ids are the event id, or the event id and "-r<n>" (attemptJobId). */
const eventIdOfJob = (jobId: string) => jobId.slice(0, 32);

/** The flow control of one delivery queue (webhook or a2a), as the processor uses it. */
export function createAdmission(deps: {
  flow: Flow;
  kind: 'webhook' | 'a2a';
  producer: Producer;
  logger: Logger;
  metrics?: DeliveryMetrics;
}): Admission {
  const { flow, kind } = deps;
  const ref = (work: DeliveryWork) => ({ orgId: work.org_id, targetId: work.target_id });

  // A handed job normally sits delayed: it is taken out and added again at the head of the waiting
  // list, so it runs next and uses the slot reserved for it (a promotion would put it behind the whole
  // backlog, where the reservation lapses). If it is still being parked (its move not done yet) it
  // cannot be removed; that is tried once more shortly, and after that its own wake-up brings it back.
  const promote = async (h: Handed, tries = 2): Promise<void> => {
    const queueKind = h.kind === 'a2a' ? 'a2a' : 'webhook';
    const removed = await deps.producer
      .queue(queueKind)
      .remove(h.jobId)
      .catch(() => 0);
    if (removed === 1) {
      await deps.producer.add(queueKind, h.jobId, { eventId: eventIdOfJob(h.jobId) }, { first: true });
    } else if (tries > 1) {
      await new Promise((r) => setTimeout(r, 50));
      await promote(h, tries - 1);
    }
  };

  return {
    async enter(work, job, token) {
      const jobId = jobIdOf(work, job);
      const admission = await flow.acquire(kind, ref(work), jobId);
      if (admission.go) return true;
      deps.metrics?.held(kind, admission.reason);
      if (!job) {
        await deps.producer.add(kind, jobId, { eventId: work.id }, { delayMs: admission.delayMs });
        return false;
      }
      await job.moveToDelayed(Date.now() + admission.delayMs, token);
      throw new DelayedError(`held: ${admission.reason}`);
    },
    async leave(work, job, outcome) {
      try {
        const { handed, opened, closed } = await flow.release(kind, ref(work), jobIdOf(work, job), outcome);
        if (opened) deps.logger.warn({ targetId: work.target_id }, 'circuit opened: deliveries held');
        if (closed) deps.logger.info({ targetId: work.target_id }, 'circuit closed: deliveries resume');
        if (opened || closed) deps.metrics?.circuit(kind, opened ? 'opened' : 'closed');
        await Promise.all(handed.map((h) => promote(h)));
      } catch (err) {
        // The slot's lease lapses by itself and held jobs wake on their own: nothing is lost.
        deps.logger.warn({ err, targetId: work.target_id }, 'could not release a delivery slot');
      }
    },
  };
}
