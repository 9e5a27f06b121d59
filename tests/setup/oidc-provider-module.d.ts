// The small part of oidc-provider (an untyped ESM package) that tests/setup/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type OidcContext = {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { login?: unknown; consent?: { grantId?: string } };
      provider: Provider;
    };
  };

  export type InteractionResult =
    | { login: { accountId: string; remember?: boolean } }
    | { error: string; error_description?: string };

  export type Interaction = {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
  };

  export class Grant {
    constructor(init: { clientId: string; accountId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export type CheckResult = boolean;

  export class Check {
    constructor(
      reason: string,
      description: string,
      check: (ctx: OidcContext) => CheckResult | Promise<CheckResult>,
    );
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }

  export type Prompt = { name: string; checks: Check[] };

  export const interactionPolicy: {
    base(): Prompt[] & { get(name: string): Prompt | undefined };
    Check: typeof Check;
  };

  export default Provider;
}
