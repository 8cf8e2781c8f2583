// Every public page with its level-1 heading and some of its text (spec §2).

export const PUBLIC_PAGES: { path: string; heading: string | RegExp; text: (string | RegExp)[] }[] = [
  {
    path: '/',
    heading: 'Find Out If Unclaimed Money Is Waiting For You',
    text: ["How Do I Find Out If I'm Owed Money?", 'How Does the Process Work?', 'Uncashed payroll checks'],
  },
  { path: '/terms', heading: 'Terms & Conditions', text: [/^1\. /, /^8\. /, /Last updated:/] },
  { path: '/privacy', heading: 'Privacy Policy', text: [/^1\. /, /^9\. /, /Last updated:/] },
  { path: '/privacy-notice', heading: 'Privacy Notice', text: [/date of birth/i] },
  { path: '/ca-privacy', heading: 'California Privacy Rights', text: [/45 days/] },
  { path: '/contact', heading: 'Contact Us', text: [/24-48 hours/] },
  { path: '/thank-you', heading: /thank you/i, text: [] },
  { path: '/unsubscribe', heading: /unsubscribe/i, text: [] },
  {
    path: '/no-such-page',
    heading: '404 Page Not Found',
    text: ['Did you forget to add the page to the router?'],
  },
];
