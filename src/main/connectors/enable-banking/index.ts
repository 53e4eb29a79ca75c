// Enable Banking (issue 52): the provider the sync uses, and what connecting a bank needs.
export { enableBanking, enableBankingProvider, type EnableBankingCredentials } from './provider';
export { banks, beginConnect, completeConnect, type Bank, type BeginConnect, type Connected } from './connect';
export { connectFromCommand, codeFromPasted, CALLBACK_PATH, DEFAULT_REDIRECT, type CommandConnect, type CommandConnected } from './command';
export { enableBankingBase, type CallTuning } from './client';
export { SERVICE, type ApplicationCredentials } from './jwt';
