from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_schema_release_keywords import GetSchemaReleaseKeywords
from ...models.get_schema_release_lang import GetSchemaReleaseLang
from ...models.get_schema_release_launcher import GetSchemaReleaseLauncher
from ...models.get_schema_release_response_200 import GetSchemaReleaseResponse200
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    release: str,
    *,
    launcher: GetSchemaReleaseLauncher | Unset = UNSET,
    lang: GetSchemaReleaseLang | Unset = UNSET,
    keywords: GetSchemaReleaseKeywords | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    params: dict[str, Any] = {}

    json_launcher: str | Unset = UNSET
    if not isinstance(launcher, Unset):
        json_launcher = launcher.value

    params["launcher"] = json_launcher

    json_lang: str | Unset = UNSET
    if not isinstance(lang, Unset):
        json_lang = lang.value

    params["lang"] = json_lang

    json_keywords: str | Unset = UNSET
    if not isinstance(keywords, Unset):
        json_keywords = keywords.value

    params["keywords"] = json_keywords


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/schema/{release}".format(release=quote(str(release), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | GetSchemaReleaseResponse200:
    if response.status_code == 200:
        response_200 = GetSchemaReleaseResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody | GetSchemaReleaseResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    release: str,
    *,
    client: AuthenticatedClient | Client,
    launcher: GetSchemaReleaseLauncher | Unset = UNSET,
    lang: GetSchemaReleaseLang | Unset = UNSET,
    keywords: GetSchemaReleaseKeywords | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ErrorBody | GetSchemaReleaseResponse200]:
    """ The JSON Schema of one DeepSpeed release (`0.18.4` or `0.18.4.json`; usable as `$schema` in an
    editor)

    Args:
        release (str):
        launcher (GetSchemaReleaseLauncher | Unset):
        lang (GetSchemaReleaseLang | Unset):
        keywords (GetSchemaReleaseKeywords | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody | GetSchemaReleaseResponse200]
     """


    kwargs = _get_kwargs(
        release=release,
launcher=launcher,
lang=lang,
keywords=keywords,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    release: str,
    *,
    client: AuthenticatedClient | Client,
    launcher: GetSchemaReleaseLauncher | Unset = UNSET,
    lang: GetSchemaReleaseLang | Unset = UNSET,
    keywords: GetSchemaReleaseKeywords | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | ErrorBody | GetSchemaReleaseResponse200 | None:
    """ The JSON Schema of one DeepSpeed release (`0.18.4` or `0.18.4.json`; usable as `$schema` in an
    editor)

    Args:
        release (str):
        launcher (GetSchemaReleaseLauncher | Unset):
        lang (GetSchemaReleaseLang | Unset):
        keywords (GetSchemaReleaseKeywords | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody | GetSchemaReleaseResponse200
     """


    return sync_detailed(
        release=release,
client=client,
launcher=launcher,
lang=lang,
keywords=keywords,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    release: str,
    *,
    client: AuthenticatedClient | Client,
    launcher: GetSchemaReleaseLauncher | Unset = UNSET,
    lang: GetSchemaReleaseLang | Unset = UNSET,
    keywords: GetSchemaReleaseKeywords | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ErrorBody | GetSchemaReleaseResponse200]:
    """ The JSON Schema of one DeepSpeed release (`0.18.4` or `0.18.4.json`; usable as `$schema` in an
    editor)

    Args:
        release (str):
        launcher (GetSchemaReleaseLauncher | Unset):
        lang (GetSchemaReleaseLang | Unset):
        keywords (GetSchemaReleaseKeywords | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody | GetSchemaReleaseResponse200]
     """


    kwargs = _get_kwargs(
        release=release,
launcher=launcher,
lang=lang,
keywords=keywords,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    release: str,
    *,
    client: AuthenticatedClient | Client,
    launcher: GetSchemaReleaseLauncher | Unset = UNSET,
    lang: GetSchemaReleaseLang | Unset = UNSET,
    keywords: GetSchemaReleaseKeywords | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | ErrorBody | GetSchemaReleaseResponse200 | None:
    """ The JSON Schema of one DeepSpeed release (`0.18.4` or `0.18.4.json`; usable as `$schema` in an
    editor)

    Args:
        release (str):
        launcher (GetSchemaReleaseLauncher | Unset):
        lang (GetSchemaReleaseLang | Unset):
        keywords (GetSchemaReleaseKeywords | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody | GetSchemaReleaseResponse200
     """


    return (await asyncio_detailed(
        release=release,
client=client,
launcher=launcher,
lang=lang,
keywords=keywords,
if_none_match=if_none_match,

    )).parsed
