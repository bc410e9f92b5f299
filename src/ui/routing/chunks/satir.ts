/** The protest page's chunk (/satir, /satir-nickname): the login screen with the satire around it. */
export { SatirLoginScreen } from '../../login/satir/SatirLoginScreen';
