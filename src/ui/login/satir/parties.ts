/**
 * The eight parties of the Riksdag (issue 9) and the contact page of each, on its own https domain. The
 * party selector of the protest page (spec §1) opens the chosen one in a new tab.
 */
export interface Party {
  id: string;
  name: string;
  url: string;
}

export const PARTIES: readonly Party[] = [
  { id: 's', name: 'Socialdemokraterna', url: 'https://www.socialdemokraterna.se/kontakt' },
  { id: 'm', name: 'Moderaterna', url: 'https://moderaterna.se/kontakt' },
  { id: 'sd', name: 'Sverigedemokraterna', url: 'https://sd.se/kontakt' },
  { id: 'c', name: 'Centerpartiet', url: 'https://www.centerpartiet.se/kontakt' },
  { id: 'v', name: 'Vänsterpartiet', url: 'https://www.vansterpartiet.se/kontakt' },
  { id: 'kd', name: 'Kristdemokraterna', url: 'https://kristdemokraterna.se/kontakt' },
  { id: 'l', name: 'Liberalerna', url: 'https://www.liberalerna.se/kontakt' },
  { id: 'mp', name: 'Miljöpartiet', url: 'https://www.mp.se/kontakt' },
];
