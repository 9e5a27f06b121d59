/// <reference types="vite/client" />

// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging
interface ImportMetaEnv {
  readonly VITE_APP_NAME?: string;
}
