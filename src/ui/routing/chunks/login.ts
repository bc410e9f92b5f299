/** The login chunk (/login, /nickname): the standard login screen and its steps. */
export { LoginScreen } from '../../login/LoginScreen';
