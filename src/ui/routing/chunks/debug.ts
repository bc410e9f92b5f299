/** The debug screen's chunk (/debug). */
export { DebugScreen } from '../../debug/DebugScreen';
