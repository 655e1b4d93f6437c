"""layout: raw page blocks -> ordered, labelled blocks (pure: no PDF access here).

`document.layout_document` composes the steps: furniture (running headers and footers) ->
order (reading order) -> paragraphs -> breaks (sentences cut by page breaks) -> headings;
`settings` holds their thresholds. This file imports nothing, so that reading the settings
(ConvertOptions does, for the CLI's defaults) does not load the stage.
"""
