// Lets the page import its stylesheet (esbuild bundles it into app.css).
declare module '*.css';
