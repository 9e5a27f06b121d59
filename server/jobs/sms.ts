// Text messages through the job queue: the sign-in code is queued by the request and delivered
// by a worker (retried a few times, quickly: a code is useless after 10 minutes).
import type { Logger } from '../lib/logger';
import { maskNumber, type SmsMessage, type SmsSender } from '../lib/sms';
import type { JobQueue } from './queue';

type SmsJob = { message: SmsMessage };

/** A sender whose `send` only enqueues. */
export function queuedSms(jobs: JobQueue, sender: SmsSender): SmsSender {
  return {
    kind: sender.kind,
    async send(message) {
      await jobs.send('sms', { message } satisfies SmsJob);
      jobs.wake('sms');
    },
  };
}

export async function startSmsWorkers(
  deps: { jobs: JobQueue; sender: SmsSender; logger: Logger },
  options: { pollingIntervalSeconds?: number } = {},
): Promise<void> {
  await deps.jobs.work<SmsJob>(
    'sms',
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async ([job]) => {
      if (!job) return;
      try {
        await deps.sender.send(job.data.message);
      } catch (err) {
        deps.logger.warn({ err, to: maskNumber(job.data.message.to) }, 'sms failed; retried');
        throw err;
      }
    },
  );
}
