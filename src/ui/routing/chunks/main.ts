/** The main screen's chunk (/inbox and the other signed-in paths): the layout, the menu and the chats list. */
export { MainScreen } from '../../main/MainScreen';
