// The bench page imports the viewer's stylesheet (vite bundles it), so both
// pages get the same CSS, including the status-mark level-of-detail rule.
declare module '*.css';
