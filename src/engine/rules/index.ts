/** Pure product rules the engine exposes as queries (spec §4, §5, §6). */
export * from './edit';
export * from './delete';
export * from './notify';
export * from './settings';
export * from './attachment';
export * from './mute';
export * from './profile';
export * from './unread';
export * from './fold';
export * from './sender';
