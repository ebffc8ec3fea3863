// The help page: the playground's stylesheet only (the page itself is static HTML).
import './style.css';
