/** The right panel's chunk: a chat's settings, members and profiles. */
export { RightPanel } from '../../main/RightPanel';
