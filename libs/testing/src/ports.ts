// One implementation of the free-port helper lives in devnet-kit (the chains need it too).
export { freePort as getFreePort } from '@dex/devnet-kit';
