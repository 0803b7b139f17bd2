/* core.p4: written by the helper */
