import type { LoginVariant } from '../routing/paths';

/** Placeholder: the login helper replaces it with the phone, PIN and nickname steps. */
export function LoginScreen(_props: { variant: LoginVariant; step: 'phone' | 'nickname' }) {
  return <main />;
}
