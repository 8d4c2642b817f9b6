/** Health as a word and a colour: healthy, unhealthy, or not known yet. */
export function Health({ healthy, deleting }: { healthy?: boolean; deleting?: boolean }) {
  if (deleting) return <span className="health wait">deleting</span>;
  if (healthy === true) return <span className="health ok">healthy</span>;
  if (healthy === false) return <span className="health bad">unhealthy</span>;
  return <span className="health wait">pending</span>;
}

export function LiveBadge({ live }: { live: boolean }) {
  return (
    <span className={live ? 'live' : 'live off'} role="status">
      {live ? 'Live' : 'Reconnecting…'}
    </span>
  );
}

/** "5m" from an ISO time. */
export function age(iso?: string): string {
  if (!iso) return '';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
