"""Small markup fixes so the built HTML passes the Nu HTML checker (tests/test_html_valid.py).

Material's nav partial writes tabindex="" on section labels when navigation.sections is on; an empty
tabindex is not a valid integer and browsers ignore it, so dropping it changes nothing but validity.
"""

EMPTY_TABINDEX = ' tabindex=""'


def on_post_page(output, page, config):
    return output.replace(EMPTY_TABINDEX, "")


def on_post_template(output_content, template_name, config):
    return output_content.replace(EMPTY_TABINDEX, "")
