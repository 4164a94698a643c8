/**
 * Self-ask's last step asks the question again with the intermediate answer beside it (Press et al.
 * 2023): "Who wrote it? (intermediate answer: fd84e05)". A model reads the names as part of the
 * question; an answer restating its question shows the user's words without them.
 */
const LABEL = 'intermediate answer';
const APPENDED = new RegExp(String.raw`\s*\(${LABEL}: [^()]*\)\s*$`);

export const withIntermediateAnswer = (question: string, names: readonly string[]): string =>
  names.length > 0 ? `${question.trim()} (${LABEL}: ${names.join(', ')})` : question;

export const withoutIntermediateAnswer = (question: string): string => question.replace(APPENDED, '');
