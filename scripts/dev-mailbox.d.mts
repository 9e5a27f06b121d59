export function isLocalHttpUrl(appUrl: string | undefined): boolean;
export function withDevMailboxDefault(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
