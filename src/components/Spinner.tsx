// A small turning ring for work under way; the text beside it says what the work is.
import './Spinner.css';

export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
