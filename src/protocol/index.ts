export * from './api';
export * from './constants';
export * from './entities';
export * from './envelope';
export * from './socket';
export * from './reactions';
