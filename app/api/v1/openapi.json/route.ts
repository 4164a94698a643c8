import { openApiDocument } from '@/server/api/v1/openapi-document';

// Public: the document describes the API, it grants nothing (every operation needs a key).
export const dynamic = 'force-static';

export const GET = () => Response.json(openApiDocument());
