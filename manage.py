#!/usr/bin/env python
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dsc_site.settings")
    from django.core.management import execute_from_command_line

    from operations.configuration import settings_or_exit

    settings_or_exit()  # a configuration mistake: one line and exit status 2
    execute_from_command_line(sys.argv)
